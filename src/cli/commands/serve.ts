import { hostname } from 'node:os';
import type { Command } from 'commander';
import {
  COMPONENT_METHODS,
  instantiate,
  requireMethods,
} from '../../actors/experiment/components.js';
import { builtinComponents } from '../../builtins/index.js';
import {
  ComponentResolutionError,
  remoteServiceOf,
  resolveComponent,
} from '../../config/components.js';
import type { ComponentRef } from '../../config/runSpec.js';
import { serveComponents } from '../../ports/queue/queueUri.js';
import type { ComponentService, RemoteKind } from '../../ports/remote/remoteComponent.js';
import { createLogger, type LogLevel } from '../../ports/runtime/logger.js';
import { redactUrl } from '../../ports/runtime/redactUrl.js';
import { CliError, ExitCode } from '../errors.js';
import { wholeNumberBounds, wholeNumberFlag } from '../wholeNumberFlag.js';
import { type NatsCredentialFlags, natsTargetOf, withNatsOptions } from './natsTarget.js';
import { natsOutOfReach } from './runQueueOpen.js';

interface ServeCommandOptions extends NatsCredentialFlags {
  as?: string;
  instances: string;
  json?: boolean;
  logLevel: LogLevel;
}

/**
 * Register `arena serve <module>:<Export>`: host an environment, brain,
 * muscle or objective as a NATS service that run files name `nats:<service>`.
 *
 * @example
 * ```ts
 * registerServeCommand(program);
 * // $ arena serve ./counter.js:Counter --nats nats://127.0.0.1:4222 --as counter
 * // arena serve: ./counter.js:Counter as nats:counter on nats://127.0.0.1:4222, 1 instance (Ctrl-C stops)
 * // arena serve: instance 5f0c2a9e81d34b7a (pid 4242 on lab-1), key MCowBQYDK2VwAyEA… (--trust-service counter=<key> uses only it)
 * ```
 */
export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'host a component (./file.js:Export or arena:Name) as a NATS service that run files name nats:<service>',
    )
    .argument(
      '<component>',
      './file.js:Export relative to the working folder, /abs/file.js:Export, or arena:Name',
    )
    .option('--as <service>', 'the service name run files use as nats:<service>')
    .option('--instances <n>', 'instances sharing the load (a NATS queue group), 1 to 1024', '1');
  withNatsOptions(command, 'the NATS server (default: ARENA_NATS)').action(
    async (component: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<ServeCommandOptions>();
      process.exitCode = await serveCommand(component, options);
    },
  );
}

async function serveCommand(component: string, options: ServeCommandOptions): Promise<number> {
  const { url, credentials } = natsTargetOf(options);
  const service = serviceOf(options.as);
  const instances = wholeNumberFlag(
    '--instances',
    options.instances,
    wholeNumberBounds.concurrency,
  );
  const ref: ComponentRef = { name: component, params: {}, yamlPath: '<component>' };
  let factory: unknown;
  try {
    factory = await resolveComponent(ref, { baseDir: process.cwd(), builtins: builtinComponents });
  } catch (error) {
    if (error instanceof ComponentResolutionError) {
      throw new CliError(`<component> ${component}: ${error.reason}`);
    }
    throw error;
  }
  const logger = createLogger({ level: options.logLevel, json: options.json === true });
  const make = (kind: RemoteKind, init: unknown) => {
    const withLogger = { ...(init as object), logger: logger.child({ service, kind }) };
    const made = instantiate(factory, kind === 'objective' ? init : withLogger, ref);
    return requireMethods(made, COMPONENT_METHODS[kind], ref, kind);
  };
  let running: ComponentService;
  try {
    running = await serveComponents(url, { service, make, instances, credentials });
  } catch (error) {
    throw natsOutOfReach(url, error);
  }
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('arena serve: draining (answering the requests in flight)\n');
    void running.drain();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // said only once a signal drains: a supervisor may stop it as soon as it reads this line
  const plural = instances === 1 ? 'instance' : 'instances';
  process.stderr.write(
    `arena serve: ${component} as nats:${service} on ${redactUrl(url)}, ${instances} ${plural} (Ctrl-C stops)\n`,
  );
  // the ids arena show names for the components each instance served, and the keys runs may pin
  running.instanceIds.forEach((id, index) => {
    process.stderr.write(
      `arena serve: instance ${id} (pid ${process.pid} on ${hostname()}), key ${running.instanceKeys[index]} (--trust-service ${service}=<key> uses only it)\n`,
    );
  });
  await running.closed;
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);
  if (!stopping) throw new CliError('the NATS connection closed', ExitCode.failed);
  process.stderr.write('arena serve: stopped\n');
  return ExitCode.ok;
}

function serviceOf(name: string | undefined): string {
  if (name === undefined) throw new CliError('--as <service> is required, e.g. --as grid-sim');
  const parsed = remoteServiceOf(`nats:${name}`);
  if ('problem' in parsed) throw new CliError(`--as: ${parsed.problem}`);
  return parsed.service;
}
