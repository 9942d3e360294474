import { network } from "hardhat";

import { measureGas } from "./gas/scenarios.js";

const { ethers } = await network.create();
const rows = await measureGas(ethers, [100, 300]);
for (const r of rows) console.log(r.operation.padEnd(45), String(r.addresses).padStart(5), String(r.gas).padStart(10), r.addresses ? String(r.gas / BigInt(r.addresses)).padStart(8) : "");
