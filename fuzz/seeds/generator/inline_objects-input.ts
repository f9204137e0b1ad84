export interface Circle {
  radius: number;
}

export interface Square {
  side: number;
}

export interface Drawing {
  /** Canvas size, written inline. */
  canvas: {
    width: number;
    height: number;
    /** Nested once more. */
    margin?: { x: number; y: number };
  };
  /** Each item is one of two shapes. */
  shapes: (Circle | Square)[];
  /** Inline objects inside an array. */
  layers?: { name: string; hidden?: boolean }[];
}
