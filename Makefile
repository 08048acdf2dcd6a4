# DFUKit. On a fresh Debian 12 machine with Swift: `make demo`, then `make test`.
SWIFT ?= swift
PREFIX ?= /usr/local
DFUKIT_DEBUG = .build/debug/dfukit
DEMO_DIR = .build/demo

.PHONY: deps build release dist test-dist demo demo-station test docs fault-matrix test-postgres test-chaos test-report test-station test-bumble test-kernel test-serial bench bench-peers bench-serial install clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The tarball a station installs: .build/dist/dfukit-VERSION-linux-x86_64.tar.gz (bin/dfukit with
# the Swift runtime linked statically, share/dfukit/profiles, the profile schema and the --json
# output schemas (share/dfukit/output-schemas), DEPENDS: the
# Debian packages it needs; the man page and completions when dfukit generates them). VERSION is
# what `dfukit --version` reports. Fails when the binary links against anything else.
dist: deps
	@scripts/make-dist.sh

# Unpacks the tarball in a fresh directory and, with the toolchain's libraries out of the search
# path, runs dfukit --version and simulated flashes with the shipped profiles.
test-dist: dist
	@scripts/test-dist.sh

# Builds, packages the sample firmware and flashes it to a simulated vendor device.
demo: build
	@mkdir -p $(DEMO_DIR)
	$(DFUKIT_DEBUG) profile check profiles/vendor-ctrlpt.yaml
	$(DFUKIT_DEBUG) package create --profile vendor-ctrlpt --version 1.0.0 \
	    --output $(DEMO_DIR)/demo-app.zip firmware-samples/demo-app.hex
	$(DFUKIT_DEBUG) package inspect $(DEMO_DIR)/demo-app.zip
	$(DFUKIT_DEBUG) flash --profile vendor-ctrlpt --device 'sim:vendor-ctrlpt?mtu=247' \
	    $(DEMO_DIR)/demo-app.zip --json

# The XCTest suites (among them the --json outputs of flash, batch run, scan and exec in every
# outcome, checked against `dfukit schema output` by python3-jsonschema, which deps installs), then Examples/ (a package that uses the library products by path) built in
# .build/examples and each example run and checked (scripts/run-examples.sh).
test: deps
	@scripts/run-tests.sh

# Every shipped profile against the simulators with a fault at every phase (disconnects on each
# request and across the transfer, lost, duplicated, garbled and reordered notifications, busy
# answers, reboots); writes .build/fault-matrix/results.json and fails on any report that
# disagrees with what the device holds. SHORT=1: the short form CI runs.
fault-matrix: deps
	@scripts/run-fault-matrix.sh $(if $(SHORT),--short)

# The API reference and the articles (Documentation/DFUKit.docc) as a static HTML site in
# .build/docs/site, from the build's public symbol graphs with the toolchain's docc; fails, naming
# FILE:LINE and the symbol, on a public symbol without a doc comment in the modules
# scripts/check-doc-coverage.py checks (DFUHCI, DFUATT and DFUHCITransport are not checked yet).
docs: deps
	@scripts/build-docs.sh

# The PostgreSQL ledger tests: starts a throwaway server on 127.0.0.1 (scripts/start-postgres.sh),
# runs DFULedgerTests.PostgresLedgerTests, PostgresSchemaTests and DFUCommandLineTests.BatchPostgresTests
# with DFUKIT_TEST_POSTGRES_URL set, stops the server;
# ends with "N passed, N failed". (`make test` reports those tests as skipped.)
test-postgres: deps
	@scripts/run-postgres-tests.sh

# Three stations on one throwaway PostgreSQL ledger flash 200 real-time simulated devices
# (sim:vendor-ctrlpt?fleet=200&realtime=1&journal=DIR) with 6 s leases while stations are SIGKILLed
# and restarted, PostgreSQL restarts once and one station stalls past its lease; then checks the
# ledger against the devices' journal and prints "0 double writes, 0 lost records, ...".
# A few minutes; scripts/run-chaos-test.sh lists its knobs (CHAOS_SEED, CHAOS_SPEED, ...).
test-chaos: deps
	@scripts/run-chaos-test.sh

# Renders HTML batch reports (24 and 500 devices) in headless Chromium and checks the charts are in
# the DOM, bounded in height, with histograms and the stations' timeline past 40 devices.
test-report: deps
	@scripts/check-html-report.sh

# A provisioning line as its supervisor meets it: starts PostgreSQL, `dfukit station serve` and two
# `dfukit batch run` stations on one line flashing a real-time simulated fleet (devices 2 to 5
# fail their first attempt and halt the line), opens the dashboard in headless Chromium
# (chromium-driver, selenium from PyPI in .build/station-venv) and checks the page updates live,
# shows the halt, refuses a resume without the token and records one with it, ends with the
# ledger's counts, opens a device's audit record; then `station audit verify` on every record and
# on a tampered one. Screenshots in .build/station/. About 2 minutes (scripts/station-test.py).
test-station: deps
	@scripts/run-station-test.sh run

# Two stations on a SQLite ledger (.build/demo-station) flashing 40 simulated devices in real time,
# with the dashboard on http://127.0.0.1:8080/ (it prints the URL and the token); Ctrl-C stops it.
demo-station: build
	@scripts/run-station-test.sh demo

# The userspace HCI host (DFUHCI) against Bumble's virtual controllers: sets up .build/bumble-venv
# (pip install bumble), starts fresh controllers and a peripheral, runs
# DFUHCITests.BumbleIntegrationTests with a btsnoop trace. Not part of `make test` yet.
# dfukit over its own HCI host against Bumble's virtual controllers and Python peripherals:
# the host at the XCTest level, then scan, inspect and flash (vendor, Nordic, with resume).
test-bumble: deps
	@scripts/run-bumble-hci-tests.sh
	@scripts/run-bumble-tests.sh

# dfukit over the Linux kernel's Bluetooth stack (bluez:hci0): boots Debian's kernel in one qemu
# VM (TCG) whose controller is bridged to Bumble controllers on the host, and flashes Bumble
# bootloader peripherals from inside it (scripts/kernel-vm/). Installs qemu, bluez and the guest
# kernel (.build/kernel-vm); btmon captures of failed cases in .build/kernel-vm/results/.
test-kernel: deps
	@scripts/kernel-vm/run-kernel-tests.sh

# dfukit side by side with clients we did not write (smpmgr 0.19.1 and mcumgr-toolkit 0.20.0 from
# PyPI; nrfutil 6.1.7 for Nordic serial DFU; pinned in .build/serial-venv*: the script runs
# scripts/serial-peers-venv.sh, which installs them the first time) against the same simulated devices served by `dfukit sim
# serve` on pseudo-terminals and on the loopback: Nordic Secure DFU, Zephyr SMP and MCUboot serial
# recovery over a 1 Mbaud UART, SMP over UDP. Each run is checked by what the device holds (and
# dfukit's --json device_holds against it); prints a table, keeps a failed case's logs in
# .build/test-serial/CASE/; under ~2 minutes. scripts/test-serial.py says exactly what each case runs.
# ONLY='smp-udp nordic': only the cases whose CASE/CLIENT name contains one of these words.
test-serial: deps
	$(SWIFT) build --product dfukit
	@scripts/test-serial.py $(if $(ONLY),--only $(ONLY))

# The same clients' upload times at 115200 baud, 1 Mbaud and over UDP (3 runs each, timed on the
# wire by a relay; RUNS=N), against each line's limit (baud/10 over the bytes on the wire per image byte)
# and dfukit against the fastest peer; writes .build/bench-serial/results.json. Under 10 minutes;
# not part of `make test` nor of .ci/run.
bench-serial: deps
	$(SWIFT) build --product dfukit
	@scripts/test-serial.py --bench $(if $(RUNS),--runs $(RUNS)) $(if $(ONLY),--only $(ONLY))

# Release build; writes .build/bench/results.json (and batch.json, ledger.json beside it).
bench: deps
	@scripts/run-bench.sh

# dfukit (bluez:hci0) side by side with smpmgr (PyPI, bleak over BlueZ's D-Bus API) in ONE boot
# of the test-kernel VM, against fresh Bumble MCUmgr peers with an nRF52840's flash times:
# RUNS=3 uploads each, alternating; prints upload seconds per run, whether each was confirmed,
# the medians and the ratio smpmgr/dfukit; writes .build/bench-peers/results.json. Slow (8-11
# minutes: smpmgr's Python starts slowly under TCG); not part of `make test` nor of .ci/run.
bench-peers: deps
	@scripts/kernel-vm/run-peers-bench.sh

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/dfukit/profiles
	install -m 0755 .build/release/dfukit $(DESTDIR)$(PREFIX)/bin/dfukit
	install -m 0644 profiles/*.yaml $(DESTDIR)$(PREFIX)/share/dfukit/profiles/
	.build/release/dfukit profile schema > $(DESTDIR)$(PREFIX)/share/dfukit/profile.schema.json
	install -d $(DESTDIR)$(PREFIX)/share/dfukit/output-schemas
	for output in flash batch-run scan exec; do \
	    .build/release/dfukit schema output $$output > $(DESTDIR)$(PREFIX)/share/dfukit/output-schemas/$$output.schema.json; done
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	.build/release/dfukit man > $(DESTDIR)$(PREFIX)/share/man/man1/dfukit.1
	.build/release/dfukit completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dfukit
	.build/release/dfukit completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_dfukit
	.build/release/dfukit completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/dfukit.fish

clean:
	rm -rf .build
