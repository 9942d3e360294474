// The rule lives with the scores (the report marks it too); compare keeps its import.
export { fallsBelowVestingMinimum } from "../scores/vesting.js";
