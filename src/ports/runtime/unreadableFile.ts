/**
 * The one line arena says of a file it cannot read: `cannot read <file>:
 * <why>`, the why in words (`no such file`, `permission denied`, `it is a
 * folder`), else the system's code; never the system's message beside it,
 * which would say the same twice.
 *
 * @example
 * ```ts
 * cannotReadFile('nothere.yaml', Object.assign(new Error('ENOENT: …'), { code: 'ENOENT' }));
 * // 'cannot read nothere.yaml: no such file'
 * cannotReadFile('runs', Object.assign(new Error('EISDIR: …'), { code: 'EISDIR' }));
 * // 'cannot read runs: it is a folder'
 * ```
 */
export function cannotReadFile(file: string, error: unknown): string {
  return `cannot read ${file}: ${unreadableReason(error)}`;
}

/**
 * Why a file could not be read, in words: what {@link cannotReadFile} says
 * after the file's name.
 *
 * @example
 * ```ts
 * unreadableReason(Object.assign(new Error('EACCES: …'), { code: 'EACCES' })); // 'permission denied'
 * unreadableReason(Object.assign(new Error('EIO: …'), { code: 'EIO' })); // 'EIO'
 * ```
 */
export function unreadableReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of its path is not a folder';
    default:
      return code ?? 'unreadable';
  }
}
