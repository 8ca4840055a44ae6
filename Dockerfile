# syntax=docker/dockerfile:1
#
# The textanalysis binary alone on a distroless base: static (CGO_ENABLED=0;
# the SQLite driver, modernc.org/sqlite, is pure Go), run as a non-root user,
# models embedded in the binary.
#
#   docker build -t go-textanalysis .
#   docker run --rm -p 8080:8080 go-textanalysis          # SQLite in the /data volume
#   docker run --rm go-textanalysis version
#
# The version comes from the Go toolchain's build information, not from a
# constant or a build argument: with the repository's .git in the build
# context, `go build` records the tag (or a pseudo-version), the commit, its
# time and whether the tree was modified. Without .git (a source archive, or
# a git worktree, whose .git is a file pointing outside the context), build
# with --build-arg GOFLAGS=-buildvcs=false and the version reads (devel).

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOTOOLCHAIN=local
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG GOFLAGS=""
RUN go build -trimpath -ldflags="-s -w" -o /out/textanalysis ./cmd/textanalysis \
	&& /out/textanalysis version \
	&& mkdir -p /out/data

# static-debian12 holds CA certificates (page fetches, SMTP and Redis over
# TLS), time zone data and /etc/passwd with the nonroot user (65532), and no
# shell: the health check is the binary's own healthcheck command.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/textanalysis /usr/local/bin/textanalysis
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
VOLUME ["/data"]
# The admin address (/metrics, /healthz, /readyz) listens on every interface
# of the container, so that a proxy on the container network can poll
# /readyz; publish only 8080.
ENV TEXTANALYSIS_ADDR=:8080 \
	TEXTANALYSIS_ADMIN_ADDR=:9090 \
	TEXTANALYSIS_DATABASE_URL=/data/textanalysis.db
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
	CMD ["/usr/local/bin/textanalysis", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/textanalysis"]
CMD ["serve"]
