import type { Widget } from "@example/elsewhere";

export interface Crate {
  contents: Widget[];
}
