import { Shared } from "@fuzz/base";
export interface Uses { s: Shared; }
