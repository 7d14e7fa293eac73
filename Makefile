# Two commands on a fresh machine: `make start` and `make test`. Each installs what is missing first.
# npm scripts put node_modules/.bin first on PATH, so they run on the Node 22 that the `node` package installs.
.PHONY: start test install migrate replay bench typecheck

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

start: install
	npm run --silent start

test: install
	npm test

migrate: install
	npm run --silent migrate

replay: install
	npm run --silent replay

typecheck: install
	npm run typecheck

bench: install
	npm run bench:api
