/** A file of the operator's seed folder; `dir` is relative to the folder ('' for the folder itself). */
export interface SeedFile {
  dir: string;
  name: string;
  size: number;
}

/** Reads the folder `gaia seed` is given. */
export interface SeedSourcePort {
  /** Files of the folder and of its direct sub-folders (the folder's own name comes as `root`). */
  list(folder: string): Promise<{ root: string; files: SeedFile[] }>;
  read(folder: string, file: SeedFile): Promise<Buffer>;
}
