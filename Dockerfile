# Build a static binary, then ship it alone in a small non-root image.
FROM golang:1.26-bookworm AS build
# go.mod pins a patched toolchain; the image says GOTOOLCHAIN=local, which
# would build with whatever 1.26 release the image has.
ENV GOTOOLCHAIN=auto
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO_ENABLED=0: SQLite is pure Go (modernc.org/sqlite), so no C toolchain or
# libc is needed at run time. The time zone database is embedded in the
# binary (time/tzdata), so IANA zones work in the image.
ARG VERSION=""
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION}" -o /out/mazebot . \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/mazebot /mazebot
COPY --from=build --chown=65532:65532 /out/data /data
ENV MAZEBOT_DB=/data/mazebot.db
VOLUME ["/data"]
# The HTTP interactions endpoint, when HTTP_ADDR=:8080 is set; the gateway
# needs no inbound port.
EXPOSE 8080
USER 65532:65532
# "bot" runs the bot, and exits non-zero without DISCORD_TOKEN, so an
# orchestrator sees the mistake: docker run -e DISCORD_TOKEN=… IMAGE. The
# command line works too: docker run IMAGE maze sidewinder 21.
ENTRYPOINT ["/mazebot"]
CMD ["bot"]
