export interface OpenDoor {
  method: "door/open";
  door: string;
}

export interface CloseDoor {
  method: "door/close";
  door: string;
  /** Slam it. */
  force?: boolean;
}

export interface RingBell {
  method: "bell/ring";
}

/** Commands a house accepts, chosen by `method`. */
export type HouseCommand = OpenDoor | CloseDoor | RingBell;
