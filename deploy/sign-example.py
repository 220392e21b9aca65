#!/usr/bin/env python3
"""Signs a Mihiraki URL the way `mihiraki sign` does (imgproxy's scheme):
the path and query after the host, prefixed with /s/SIGNATURE, where
SIGNATURE is URL-safe Base64 without padding of HMAC-SHA256(key, salt + path).

  sign-example.py KEY_HEX SALT_HEX URL
"""
import base64
import hashlib
import hmac
import sys
from urllib.parse import urlsplit

key, salt, url = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3]
parts = urlsplit(url)
path = parts.path + ("?" + parts.query if parts.query else "")
digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()
signature = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
print(f"{parts.scheme}://{parts.netloc}/s/{signature}{path}")
