// Engine artifacts, timed (never asserted): how long a directory takes to be read and packed
// (read_artifact), inspected (inspect_artifact), and materialised in the cache, cold (loaded,
// hashed, extracted, made read-only, renamed) and warm (a lease of the entry already there).
//
//   artifact_bench [--runs N] [--dir DIR]
//
// Three artifacts, made in DIR (default: a new directory under $TMPDIR, removed at the end): a
// 2 KB script as a File artifact, a tree of 200 files adding up to 5 MB, and a tree of 600 files
// adding up to 60 MB (random bytes: what compresses badly, like binaries and weights). Each step
// runs N times (default 5); the median and the fastest are printed, in milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engines/artifact.h"
#include "engines/artifact_cache.h"

using namespace referee;
using namespace referee::engines;

namespace {

namespace fs = std::filesystem;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "artifact_bench: %s\n", what.c_str());
  std::exit(1);
}

void write_file(const fs::path& path, std::size_t size, std::mt19937_64& random) {
  fs::create_directories(path.parent_path());
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; i += 8) {
    const std::uint64_t word = random();
    std::memcpy(bytes.data() + i, &word, std::min<std::size_t>(8, size - i));
  }
  std::ofstream(path, std::ios::binary) << bytes;
}

// `files` files of random bytes adding up to `total`, ten to a directory.
void make_tree(const fs::path& root, std::size_t files, std::size_t total) {
  std::mt19937_64 random(files);
  for (std::size_t i = 0; i < files; ++i)
    write_file(root / ("d" + std::to_string(i / 10)) / ("f" + std::to_string(i)), total / files,
               random);
}

double time_ms(const std::function<void()>& step) {
  const auto start = std::chrono::steady_clock::now();
  step();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

struct Figures {
  std::vector<double> runs;
  std::string text() {
    std::sort(runs.begin(), runs.end());
    char buf[64];
    std::snprintf(buf, sizeof buf, "%9.2f %9.2f", runs[runs.size() / 2], runs.front());
    return buf;
  }
};

void bench(const std::string& name, const std::string& path, const fs::path& work, int runs) {
  Figures read, inspect, cold, warm;
  ArtifactBytes art;
  for (int i = 0; i < runs; ++i)
    read.runs.push_back(time_ms([&] {
      Expected<ArtifactBytes> got = read_artifact(path);
      if (!got) die(got.error());
      art = std::move(*got);
    }));
  for (int i = 0; i < runs; ++i)
    inspect.runs.push_back(time_ms([&] {
      if (auto m = inspect_artifact(art.kind, art.file_name, art.bytes, {}); !m) die(m.error());
    }));
  auto load = [&]() -> Expected<std::string> { return art.bytes; };
  for (int i = 0; i < runs; ++i) {
    const fs::path dir = work / ("cache-" + std::to_string(i));
    ArtifactCache cache(dir.string(), 1ull << 40);
    cold.runs.push_back(time_ms([&] {
      if (auto lease = cache.materialise(art.sha256, art.kind, art.file_name, load, {}); !lease)
        die(lease.error());
    }));
    warm.runs.push_back(time_ms([&] {
      if (auto lease = cache.materialise(art.sha256, art.kind, art.file_name, load, {}); !lease)
        die(lease.error());
    }));
    for (auto& it : fs::recursive_directory_iterator(dir))
      if (it.is_directory() && !it.is_symlink()) fs::permissions(it.path(), fs::perms::owner_all);
    fs::remove_all(dir);
  }
  std::printf("%-28s %10zu  %s  %s  %s  %s\n", name.c_str(), art.bytes.size(), read.text().c_str(),
              inspect.text().c_str(), cold.text().c_str(), warm.text().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::string given;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (arg == "--dir" && i + 1 < argc)
      given = argv[++i];
    else
      die("usage: artifact_bench [--runs N] [--dir DIR]");
  }
  if (runs < 1) die("--runs must be at least 1");
  fs::path work = given;
  if (given.empty()) {
    std::string pattern = (fs::temp_directory_path() / "artifact-bench-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) die("cannot create a temporary directory");
    work = pattern;
  }
  fs::create_directories(work);
  {
    std::mt19937_64 random(1);
    std::string script = "#!/usr/bin/env python3\n";
    while (script.size() < 2000) script += "print('move', " + std::to_string(random()) + ")\n";
    std::ofstream(work / "bot.py", std::ios::binary) << script;
  }
  make_tree(work / "tree-5mb", 200, 5'000'000);
  make_tree(work / "tree-60mb", 600, 60'000'000);
  std::printf("%d runs each; milliseconds, median and fastest\n", runs);
  std::printf("%-28s %10s  %19s  %19s  %19s  %19s\n", "artifact", "bytes", "read+pack", "inspect",
              "materialise cold", "materialise warm");
  bench("script (1 file, 2 KB)", (work / "bot.py").string(), work, runs);
  bench("tree (200 files, 5 MB)", (work / "tree-5mb").string(), work, runs);
  bench("tree (600 files, 60 MB)", (work / "tree-60mb").string(), work, runs);
  if (given.empty()) fs::remove_all(work);
  return 0;
}
