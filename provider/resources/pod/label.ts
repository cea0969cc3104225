/** How progress lines and errors name a pod: `Pod trainer`. Every step of a pod's create uses it. */
import { byName } from "../common.js";

export const label = byName("Pod");
