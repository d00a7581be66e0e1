#!/usr/bin/env python3
"""Opens and seals the pages of Tally's read-side store (`read-side/read-side.sqlite`) outside Tally.

Page format (Sources/TallySQLiteEncryption/PageCipher.swift, Docs/Security.md "Encrypted read side"):
    [0 ..< clear) clear (page 1: the 100-byte SQLite header) | ciphertext | nonce 12 | tag 16
    AD = "TSQ1" | kind (1 db, 2 wal) | page number BE32 | WAL frame index BE32 | clear prefix

Keys: an unencrypted ledger's store uses the public integrity key
SHA256("tally read-side store: page integrity, not secrecy"); an encrypted one
HKDF-SHA256(ikm = ledger key, salt = none, info = "tally read-side store v1", 32 bytes).

Sub-commands:
    decrypt DB OUT [--key-hex HEX]       every database page opened; OUT is a plain SQLite file
                                         (reserved bytes zero) that sqlite3 can read and change
    encrypt PLAIN DB [--key-hex HEX]     seals every page of PLAIN (fresh nonces) into DB
    grep DIR TEXT [--key-hex HEX]        decrypts every page of DIR/read-side.sqlite and every
                                         frame (any WAL generation) of its -wal, prints where
                                         TEXT occurs in the plaintext
    diffpages A B                        page numbers whose bytes differ between two store files
    swappage SRC DST N                   copies page N (1-based) of SRC into DST, in place
"""
import hashlib
import os
import struct
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

TRAILER = 28
HEADER = 100


def integrity_key():
    return hashlib.sha256(b"tally read-side store: page integrity, not secrecy").digest()


def page_key(ledger_key_hex):
    if ledger_key_hex is None:
        return integrity_key()
    if ":" in ledger_key_hex:
        ledger_key_hex = ledger_key_hex.split(":", 1)[1]
    ikm = bytes.fromhex(ledger_key_hex.strip())
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"tally read-side store v1").derive(ikm)


def ad(kind, pgno, frame, clear):
    return b"TSQ1" + bytes([kind]) + struct.pack(">II", pgno, frame) + clear


def page_size(db):
    size = struct.unpack(">H", db[16:18])[0]
    return 65536 if size == 1 else size


def open_page(key, page, kind, pgno, frame):
    clear = HEADER if (pgno == 1 and kind == 1) else 0
    # In the WAL, page 1 also keeps its header clear (the clear prefix depends on the page number only).
    if pgno == 1:
        clear = HEADER
    body_end = len(page) - TRAILER
    nonce = page[body_end:body_end + 12]
    tag = page[body_end + 12:]
    plain = AESGCM(key).decrypt(nonce, page[clear:body_end] + tag, ad(kind, pgno, frame, page[:clear]))
    return page[:clear] + plain + bytes(TRAILER)


def seal_page(key, page, kind, pgno, frame):
    clear = HEADER if pgno == 1 else 0
    body_end = len(page) - TRAILER
    nonce = os.urandom(12)
    sealed = AESGCM(key).encrypt(nonce, page[clear:body_end], ad(kind, pgno, frame, page[:clear]))
    return page[:clear] + sealed[:-16] + nonce + sealed[-16:]


def decrypt_db(db, key):
    size = page_size(db)
    out = bytearray()
    for index in range(len(db) // size):
        page = db[index * size:(index + 1) * size]
        out += open_page(key, page, 1, index + 1, 0)
    return bytes(out)


def encrypt_db(plain, key):
    size = page_size(plain)
    out = bytearray()
    for index in range(len(plain) // size):
        page = plain[index * size:(index + 1) * size]
        out += seal_page(key, page, 1, index + 1, 0)
    return bytes(out)


def wal_frames(wal, key):
    """Yields (frame index, page number, plaintext or None) for every whole frame in the file."""
    if len(wal) < 32:
        return
    size = struct.unpack(">I", wal[8:12])[0]
    offset, index = 32, 0
    while offset + 24 + size <= len(wal):
        pgno = struct.unpack(">I", wal[offset:offset + 4])[0]
        page = wal[offset + 24:offset + 24 + size]
        try:
            plain = open_page(key, page, 2, pgno, index)
        except Exception:
            plain = None
        yield index, pgno, plain
        offset += 24 + size
        index += 1


def main(argv):
    key_hex = None
    if "--key-hex" in argv:
        at = argv.index("--key-hex")
        key_hex = argv[at + 1]
        del argv[at:at + 2]
    key = page_key(key_hex)
    command = argv[1]
    if command == "decrypt":
        db = open(argv[2], "rb").read()
        open(argv[3], "wb").write(decrypt_db(db, key))
    elif command == "encrypt":
        plain = open(argv[2], "rb").read()
        open(argv[3], "wb").write(encrypt_db(plain, key))
    elif command == "grep":
        folder, text = argv[2], argv[3].encode()
        path = os.path.join(folder, "read-side.sqlite")
        hits = 0
        if os.path.exists(path) and os.path.getsize(path) > 0:
            db = open(path, "rb").read()
            size = page_size(db)
            for index in range(len(db) // size):
                page = db[index * size:(index + 1) * size]
                try:
                    plain = open_page(key, page, 1, index + 1, 0)
                except Exception:
                    print(f"db page {index + 1}: does not open")
                    continue
                if text in plain:
                    hits += 1
                    print(f"db page {index + 1}: '{text.decode()}' in plaintext")
        if os.path.exists(path + "-wal"):
            wal = open(path + "-wal", "rb").read()
            for index, pgno, plain in wal_frames(wal, key):
                if plain is not None and text in plain:
                    hits += 1
                    print(f"wal frame {index} (page {pgno}): '{text.decode()}' in plaintext")
        print(f"hits: {hits}")
        return 1 if hits else 0
    elif command == "diffpages":
        a, b = open(argv[2], "rb").read(), open(argv[3], "rb").read()
        size = page_size(b)
        count = max(len(a), len(b)) // size
        print(" ".join(str(i + 1) for i in range(count) if a[i * size:(i + 1) * size] != b[i * size:(i + 1) * size]))
    elif command == "swappage":
        src, dst, n = argv[2], argv[3], int(argv[4])
        s = open(src, "rb").read()
        size = page_size(s)
        with open(dst, "r+b") as f:
            f.seek((n - 1) * size)
            f.write(s[(n - 1) * size:n * size])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
