import { ERRORS } from "../error-catalog.js";
import { VipError } from "../errors.js";

/**
 * The refusal of LEDGER_ACCOUNT when Ledger support (the optional
 * hardhat-ledger, whose USB module needs libusb and libudev) could not be
 * loaded: otherwise the account would quietly go unused. hardhat.config.ts
 * imports it only then, so the catalog is not loaded with every config.
 */
export function ledgerNotInstalled(): VipError {
  return new VipError(ERRORS.CONFIG.TOOLS.LEDGER_NOT_INSTALLED);
}
