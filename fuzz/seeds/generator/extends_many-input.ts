/** Something with a name. */
export interface Named {
  name: string;
}

/** Something that can be switched off. */
export interface Toggle {
  enabled?: boolean;
}

/** Has a colour; the colour wins over `Named` if both define it. */
export interface Coloured {
  colour: string;
}

/** A lamp: every base's fields, then its own. */
export interface Lamp extends Named, Toggle, Coloured {
  watts: number;
}
