/**
 * Input the user can fix before anything runs (a missing file, invalid JSON, a case without sources): the
 * command prints its message as one line and exits 2. Anything else thrown is unexpected.
 */
export class CliInputError extends Error {
  override readonly name = "CliInputError";
}
