export declare const ROOT: string;
export declare const API_DIR: string;
export declare const UPDATE_COMMAND: string;
export declare function packageReports(
  packageDir: string,
): { file: string; text: string; missingReasons: string[]; specifier: string }[];
export declare function lineDiff(before: string, after: string): string;
export declare function apiReportProblems(packageDir: string): string[];
