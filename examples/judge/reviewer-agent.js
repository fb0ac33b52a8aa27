// A user-written judge agent: plain ESM JavaScript, one named export, no model.
// A judge config names it as `./reviewer-agent.js:ReviewerAgent` (relative to
// the config file), and arena constructs it with `new ReviewerAgent(params)`.
//
// The judge-agent port (see arena's src/ports/judgeAgent.ts):
//   name                 the agent's name (a case whose observation.agent_name
//                        is this name is self-evaluation, and is rejected)
//   model                shown as the result's model (null if none)
//   tools                { toolName: { metadata: { read_only: true }, ... } }
//   persistState         must be false for a judge
//   conversationHistory  an array; arena restores it after every evaluation
//   generate(message, { allowedToolNames, maxToolRounds, signal, ... })
//                        resolves with { content }: the strict JSON payload
//
// This agent is a deterministic rule-based checker: it compares the case's
// `candidate_output` with its `expected_output`, normalising both with its one
// read-only tool when the judge allows it. It never calls a network.

const CANDIDATE_START = '<untrusted_candidate>\n';
const CANDIDATE_END = '\n</untrusted_candidate>';

/** Lower case, no punctuation, single spaces. */
function normalise(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s.]|\.(?!\d)/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function asText(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export class ReviewerAgent {
  /** @param {{ name?: string, match?: 'contains' | 'exact' }} params */
  constructor(params = {}) {
    this.name = params.name ?? 'reviewer';
    this.model = null;
    this.match = params.match ?? 'contains';
    if (this.match !== 'contains' && this.match !== 'exact') {
      throw new Error(`params.match must be 'contains' or 'exact', got ${String(this.match)}`);
    }
    this.persistState = false;
    this.conversationHistory = [];
    this.tools = {
      normalise: {
        metadata: { read_only: true },
        description: 'lower-case a text and drop its punctuation',
        run: normalise,
      },
    };
  }

  async generate(message, options) {
    options.signal.throwIfAborted();
    const start = message.indexOf(CANDIDATE_START);
    const end = message.lastIndexOf(CANDIDATE_END);
    if (start < 0 || end < start)
      throw new Error('no <untrusted_candidate> section in the message');
    const candidate = JSON.parse(message.slice(start + CANDIDATE_START.length, end));
    const payload = this.review(candidate, options);
    this.conversationHistory.push(
      { role: 'user', content: message },
      { role: 'assistant', content: payload },
    );
    return { content: payload };
  }

  review(candidate, { allowedToolNames, maxToolRounds }) {
    if (candidate.expected_output === null) {
      return JSON.stringify({
        status: 'skipped',
        score: null,
        label: null,
        explanation: 'no expected output to compare with',
        evidence: [],
      });
    }
    const toolAllowed =
      allowedToolNames.includes('normalise') && (maxToolRounds === null || maxToolRounds >= 1);
    const clean = toolAllowed ? this.tools.normalise.run : (text) => text.trim();
    const output = clean(asText(candidate.candidate_output));
    const expected = clean(asText(candidate.expected_output));
    // `contains` matches whole words: "42" is in "it is 42", not in "420".
    const correct =
      this.match === 'exact' ? output === expected : ` ${output} `.includes(` ${expected} `);
    return JSON.stringify({
      status: correct ? 'passed' : 'failed',
      score: correct ? 1 : 0,
      label: correct ? 'correct' : 'incorrect',
      explanation: `${this.match} match ${toolAllowed ? 'after normalising' : 'on trimmed text'}`,
      evidence: output === '' ? [] : [output.slice(0, 200)],
    });
  }
}
