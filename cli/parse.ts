/** Flag value parsers: a bad value is an error that names the flag and what it accepts (exit code 2). */
import { InvalidArgumentError } from "commander";

export function intOption(flag: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value))
      throw new InvalidArgumentError(`${flag} must be an integer between ${min} and ${max}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} must be between ${min} and ${max}.`);
    return n;
  };
}

export function numberOption(flag: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${flag} must be a number between ${min} and ${max}.`);
    }
    return n;
  };
}
