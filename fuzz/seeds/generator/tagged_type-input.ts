export interface TextBlock {
  type: "text";
  text: string;
}

export interface PictureBlock {
  type: "picture";
  url: string;
  alt?: string;
}

export interface Page {
  /** Blocks in reading order. */
  blocks: (TextBlock | PictureBlock)[];
}

/** A single block, as a named union. */
export type Block = TextBlock | PictureBlock;
