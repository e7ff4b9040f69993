// `referee bench --sandbox`: the cost of an engine's start in its sandbox (bench_sandbox.h).
#include "cli/bench_sandbox.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

#include "engines/engine_config.h"
#include "match/engine_session.h"

namespace referee::cli {

namespace {

// Milliseconds from spawn to ugiok, `starts` times; empty after a failed start (said on stderr).
std::vector<double> start_times(const std::string& engine, int starts, bool sandboxed) {
  engines::EngineConfig config;
  config.name = "bench";
  config.command = engine;
  if (sandboxed) {
    const SandboxedCommand inside = sandboxed_command(engine);
    config.command = inside.command;
    config.working_dir = inside.dir;
    config.sandbox = true;
  }
  const engines::SpawnSpec spec = engines::spawn_spec_of(config);
  match::SessionSettings settings;
  settings.keep_log = false;
  std::vector<double> ms;
  for (int i = 0; i < starts; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    auto session = match::EngineSession::start(spec, settings);
    const auto t1 = std::chrono::steady_clock::now();
    if (!session) {
      std::cerr << "referee bench: " << session.error() << "\n";
      return {};
    }
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    session->quit();
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

double percentile(const std::vector<double>& sorted, double p) {
  const auto i = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

SandboxedCommand sandboxed_command(const std::string& engine) {
  const std::filesystem::path path = std::filesystem::absolute(engine);
  return {path.parent_path().string(), "./" + path.filename().string()};
}

int bench_sandbox_starts(const std::string& engine, int starts) {
  std::printf("engine starts: %d of %s, spawn to ugiok (the engine's handshake included)\n", starts,
              engine.c_str());
  double medians[2] = {0, 0};
  for (bool sandboxed : {false, true}) {
    const auto ms = start_times(engine, starts, sandboxed);
    if (ms.empty()) return 1;
    medians[sandboxed] = percentile(ms, 0.5);
    std::printf("  %-26s median %.2f ms (10%%: %.2f, 90%%: %.2f)\n",
                sandboxed ? "in the sandbox" : "without the sandbox", medians[sandboxed],
                percentile(ms, 0.1), percentile(ms, 0.9));
  }
  std::printf("  the sandbox per start      %+.2f ms (medians)\n", medians[1] - medians[0]);
  return 0;
}

}  // namespace referee::cli
