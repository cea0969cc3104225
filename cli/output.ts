/**
 * The CLI's one way to print. Commands hand it data; it renders a table for people, JSON or YAML
 * for machines, and errors on stderr. Nothing else in the CLI writes to the terminal.
 */
export interface Output {
  line(text?: string): void;
  error(text: string): void;
}

export const stdio: Output = {
  line: (text = "") => {
    process.stdout.write(`${text}\n`);
  },
  error: (text) => {
    process.stderr.write(`${text}\n`);
  },
};
