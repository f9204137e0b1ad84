import type { Widget, Colour as Hue } from "@example/core";

/** An extension type that embeds and extends core types. */
export interface FancyWidget extends Widget {
  hue: Hue;
  sparkle: boolean;
}

export interface Shelf {
  widgets: Widget[];
}
