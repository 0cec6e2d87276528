"""TON Center's published Python clients against a tonflow gateway, driven by test/integration/py-clients.test.ts.

One step per invocation, a JSON object on stdout; the test seals the devnet's blocks between steps and checks every
value against what the devnet itself reports. The clients are used as their users use them: tonutils'
ToncenterClient (v2 REST at <endpoint>/api/v2) with its WalletV4R2 contract, and the toncenter SDK's
ToncenterRestClient (which appends /api/v2 itself).

  clients.py state ENDPOINT SEED INDEX                 balance, seqno, state of devnet wallet v4r2 #INDEX
  clients.py send ENDPOINT SEED INDEX DEST NANOTONS    a signed transfer from it, sent by tonutils
  clients.py find ENDPOINT SEED INDEX MESSAGE_HASH     the transaction the message caused, by getTransactions
  clients.py shardproof ENDPOINT WC SHARD SEQNO        the toncenter SDK's get_shard_block_proof, as its model reads it
                                                      (driven by test/integration/gateway-proofs.test.ts)
  clients.py signatures ENDPOINT SEQNO                 the toncenter SDK's get_masterchain_block_signatures, as its
                                                      model reads it (test/integration/gateway-signatures.test.ts)
"""

import asyncio
import base64
import hashlib
import json
import sys

from ton_core import NetworkGlobalID, PrivateKey, WalletV4Config
from toncenter.rest import ToncenterRestClient
from tonutils.clients import ToncenterClient
from tonutils.contracts import WalletV4R2

# The default subwallet id of v3/v4 wallets on workchain 0; the devnet gives wallet i the id DEFAULT_SUBWALLET + i.
DEFAULT_SUBWALLET = 698983191


def devnet_wallet(client, seed: str, index: int) -> WalletV4R2:
    """The devnet's key derivation (shared/sources/devnet/genesis.ts): the Ed25519 seed sha256(`<seed>:wallet:v4r2:<i>`)."""
    key = PrivateKey(hashlib.sha256(f"{seed}:wallet:v4r2:{index}".encode()).digest())
    return WalletV4R2.from_private_key(client, key, config=WalletV4Config(subwallet_id=DEFAULT_SUBWALLET + index))


def clients(endpoint: str):
    # No API key: both clients would throttle to about one request a second; tonflow has no such limit here.
    tonutils = ToncenterClient(NetworkGlobalID.MAINNET, base_url=f"{endpoint}/api/v2", rps_limit=1000, rps_period=1.0)
    sdk = ToncenterRestClient(base_url=endpoint, rps_limit=0)
    return tonutils, sdk


def num(entry) -> int:
    """A v2 stack entry ["num", "0x..."]."""
    assert entry[0] == "num", entry
    return int(entry[1], 16)


async def state(endpoint: str, seed: str, index: int) -> dict:
    tu, sdk = clients(endpoint)
    async with tu, sdk:
        wallet = devnet_wallet(tu, seed, index)
        address = wallet.address.to_str(is_user_friendly=False)
        # What wallet.refresh() loads, called directly: refresh() swallows a failed request into an empty state.
        tu_info = await tu.get_info(address)
        info = await sdk.v2.accounts.get_address_information(address)
        run = await sdk.v2.runmethod.run_get_method(address, "seqno")
        return {
            "address": address,
            "tonutils": {"balance": str(tu_info.balance), "state": tu_info.state.value, "seqno": await wallet.seqno()},
            "toncenter": {
                "balance": info.balance,
                "state": info.state.value if hasattr(info.state, "value") else info.state,
                "last_transaction_lt": info.last_transaction_id.lt,
                "last_transaction_hash": info.last_transaction_id.hash,
                "seqno": num(run.stack[0]),
                "exit_code": run.exit_code,
            },
        }


async def send(endpoint: str, seed: str, index: int, dest: str, nanotons: int) -> dict:
    tu, _ = clients(endpoint)
    async with tu:
        wallet = devnet_wallet(tu, seed, index)
        msg = await wallet.transfer(dest, nanotons, body="tonflow py clients", bounce=False)
        return {"message_hash": base64.b64encode(msg.serialize().hash).decode(), "boc": msg.as_b64}


async def find(endpoint: str, seed: str, index: int, message_hash: str) -> dict:
    tu, sdk = clients(endpoint)
    async with tu, sdk:
        wallet = devnet_wallet(tu, seed, index)
        address = wallet.address.to_str(is_user_friendly=False)
        want = base64.b64decode(message_hash)
        out: dict = {"address": address}
        # tonutils parses each transaction's BoC itself.
        for tx in await tu.get_transactions(address, limit=5):
            if tx.in_msg is not None and tx.in_msg.serialize().hash == want:
                msg = tx.out_msgs[0]
                out["tonutils"] = {
                    "lt": str(tx.lt),
                    # The cell the client parsed (pytoniq_core cannot re-serialize a Transaction).
                    "hash": base64.b64encode(tx.cell.hash).decode(),
                    "out_dest": msg.info.dest.to_str(is_user_friendly=False),
                    "out_value": str(msg.info.value.grams),
                    "seqno": await wallet.seqno(),
                }
                break
        # The SDK reads the JSON fields.
        for tx in await sdk.v2.transactions.get_transactions(address, limit=5):
            if tx.in_msg is not None and tx.in_msg.hash == message_hash:
                out["toncenter"] = {
                    "lt": tx.transaction_id.lt,
                    "hash": tx.transaction_id.hash,
                    "fee": tx.fee,
                    "out_destinations": [m.destination for m in tx.out_msgs],
                    "out_values": [m.value for m in tx.out_msgs],
                    "comment": tx.out_msgs[0].message if tx.out_msgs else None,
                }
                break
        return out


def block_id(b) -> dict:
    return {"workchain": b.workchain, "shard": b.shard, "seqno": b.seqno, "root_hash": b.root_hash, "file_hash": b.file_hash}


async def shard_proof(endpoint: str, workchain: int, shard: str, seqno: int) -> dict:
    _, sdk = clients(endpoint)
    async with sdk:
        p = await sdk.v2.blocks.get_shard_block_proof(workchain, shard, seqno)
        return {
            "from": block_id(p.from_block),
            "mc_id": block_id(p.mc_id),
            "links": [{"id": block_id(link.id), "proof": link.proof} for link in p.links],
            "mc_proof": [
                {
                    "to_key_block": link.to_key_block,
                    "from": block_id(link.from_block),
                    "to": block_id(link.to),
                    "dest_proof": link.dest_proof,
                    "proof": link.proof,
                    "state_proof": link.state_proof,
                }
                for link in p.mc_proof
            ],
        }


async def block_signatures(endpoint: str, seqno: int) -> dict:
    _, sdk = clients(endpoint)
    async with sdk:
        s = await sdk.v2.blocks.get_masterchain_block_signatures(seqno)
        return {
            "type": type(s).__name__,
            "id": block_id(s.id),
            "signatures": [{"node_id_short": x.node_id_short, "signature": x.signature} for x in s.signatures],
        }


def main(argv: list[str]) -> None:
    if argv[0] == "signatures":
        print(json.dumps(asyncio.run(block_signatures(argv[1], int(argv[2])))))
        return
    if argv[0] == "shardproof":
        print(json.dumps(asyncio.run(shard_proof(argv[1], int(argv[2]), argv[3], int(argv[4])))))
        return
    cmd, endpoint, seed, index = argv[0], argv[1], argv[2], int(argv[3])
    if cmd == "state":
        result = asyncio.run(state(endpoint, seed, index))
    elif cmd == "send":
        result = asyncio.run(send(endpoint, seed, index, argv[4], int(argv[5])))
    elif cmd == "find":
        result = asyncio.run(find(endpoint, seed, index, argv[4]))
    else:
        raise SystemExit(f"unknown step {cmd}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
