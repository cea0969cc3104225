/** This package's version, for the User-Agent. Read at run time so the build does not copy package.json. */
import { packageVersion } from "../package-file.js";

export const PACKAGE_VERSION = packageVersion();
