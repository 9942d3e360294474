import { AccAddress } from "@initia/initia.js";
import { bech32 } from "bech32";
import { expect } from "chai";
import { getAddress, hexlify, randomBytes } from "ethers";

import { ERRORS } from "../../tasks/error-catalog.js";
import { isVipError } from "../../tasks/errors.js";
import { accountAddresses } from "../../tasks/signer/addresses.js";

/** Whether `accountAddresses` accepts `text`, or the error it refuses with. */
function read(text: string): unknown {
  try {
    return accountAddresses(text, "--to");
  } catch (error) {
    return error;
  }
}

describe("an account's two spellings, as initia.js spells them", () => {
  it("agrees with AccAddress on 500 random accounts, both ways", () => {
    for (let i = 0; i < 500; i++) {
      const hex = getAddress(hexlify(randomBytes(20)));
      const bech32 = AccAddress.fromHex(hex.toLowerCase());
      expect(read(hex)).to.deep.equal({ hex, bech32 });
      expect(read(hex.toLowerCase())).to.deep.equal({ hex, bech32 });
      expect(read(hex.slice(2))).to.deep.equal({ hex, bech32 });
      expect(read(bech32)).to.deep.equal({ hex, bech32 });
      expect(AccAddress.toHex(bech32)).to.equal(hex.toLowerCase());
    }
  });

  it("refuses what AccAddress refuses, and a 32-byte module address, naming the option", () => {
    const account = AccAddress.fromHex(hexlify(randomBytes(20)));
    const module = AccAddress.fromHex(hexlify(randomBytes(32)));
    expect(AccAddress.validate(module)).to.equal(true);
    const refused = read(module);
    expect(
      isVipError(refused, ERRORS.CONTRACT.ACCOUNTS.ADDRESS_NOT_ACCOUNT) &&
        refused.params,
      String(refused),
    ).to.deep.equal({ what: "--to", address: module, bytes: 32 });
    const flipped = account.slice(0, -1) + (account.endsWith("q") ? "p" : "q");
    // Starts with init1 and is 43 characters long, but its prefix is `init1`
    // (bech32 splits at the last 1).
    const wrongPrefix = bech32.encode("init1", bech32.toWords(randomBytes(19)));
    expect(wrongPrefix).to.have.length(43);
    for (const bad of [flipped, wrongPrefix, `${account}q`, "init1"]) {
      expect(AccAddress.validate(bad)).to.equal(false);
      const error = read(bad);
      expect(
        isVipError(error, ERRORS.CONTRACT.ACCOUNTS.ADDRESS_BAD_BECH32) &&
          error.params,
        String(error),
      ).to.deep.equal({ what: "--to", address: bad });
    }
  });
});
