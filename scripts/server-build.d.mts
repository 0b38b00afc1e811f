export declare const ROOT: string;
export declare const DIST: string;
export declare function sourceFingerprint(): string;
export declare function distIsCurrent(): boolean;
export declare function buildServer(options?: { quiet?: boolean }): boolean;
export declare function buildPgliteTemplate(): Promise<{ bytes: number } | null>;
