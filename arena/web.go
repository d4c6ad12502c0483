package arena

import "embed"

// webFiles is the built web client (arena/web/dist, built from
// arena/web/src by `npm ci && npm run build` there, and committed, so that
// the binary needs no npm).
//
//go:embed web/dist
var webFiles embed.FS
