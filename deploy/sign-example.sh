#!/bin/sh
# Signs a Mihiraki URL with openssl, as `mihiraki sign` does:
#   sign-example.sh KEY_HEX SALT_HEX URL
set -eu
key=$1 salt=$2 url=$3
origin=$(printf '%s' "$url" | sed -E 's|^([a-z]+://[^/]+).*|\1|')
path=${url#"$origin"}
signature=$( { printf '%s' "$salt" | xxd -r -p; printf '%s' "$path"; } \
  | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key" -binary \
  | openssl base64 -A | tr '+/' '-_' | tr -d '=')
printf '%s/s/%s%s\n' "$origin" "$signature" "$path"
