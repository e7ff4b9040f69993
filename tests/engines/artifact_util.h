// Helpers of the artifact tests (artifact_test.cpp, artifact_cache_test.cpp): a temporary
// directory, files written into it, and tar archives built entry by entry with libarchive's
// writer, hostile ones included (absolute paths, "..", links out, devices), the way an attacker
// would make them.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace artifact_test {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "artifact-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    // The cache makes its entries read-only: a non-root run needs them writable to remove them.
    std::error_code ec;
    for (std::filesystem::recursive_directory_iterator it(path, ec), end; !ec && it != end;
         it.increment(ec))
      if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0700);
    std::filesystem::remove_all(path, ec);
  }
  std::string str() const { return path.string(); }
  // Writes `text` at `rel` (parents made) with `mode`.
  std::string write(const std::string& rel, const std::string& text, mode_t mode = 0644) const {
    const auto file = path / rel;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    ::chmod(file.c_str(), mode);
    return file.string();
  }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline bool dir_is_empty(const std::string& dir) {
  return std::filesystem::is_empty(dir);
}

enum class Filter { None, Gzip, Bzip2, Xz, Zstd };

// A tar archive written entry by entry, nothing checked.
class TarBuilder {
 public:
  explicit TarBuilder(Filter filter = Filter::None) : a_(archive_write_new()) {
    archive_write_set_format_pax_restricted(a_);
    switch (filter) {
      case Filter::None:
        archive_write_add_filter_none(a_);
        break;
      case Filter::Gzip:
        archive_write_add_filter_gzip(a_);
        break;
      case Filter::Bzip2:
        archive_write_add_filter_bzip2(a_);
        break;
      case Filter::Xz:
        archive_write_add_filter_xz(a_);
        break;
      case Filter::Zstd:
        archive_write_add_filter_zstd(a_);
        break;
    }
    // No padding after a compressed stream (as bsdtar writes it): zstd reads zeros as a frame.
    archive_write_set_bytes_in_last_block(a_, 1);
    REQUIRE(archive_write_open2(a_, &out_, nullptr, &append, nullptr, nullptr) == ARCHIVE_OK);
  }
  ~TarBuilder() { archive_write_free(a_); }
  TarBuilder(const TarBuilder&) = delete;
  TarBuilder& operator=(const TarBuilder&) = delete;

  TarBuilder& file(const std::string& path, const std::string& data, mode_t perm = 0644) {
    archive_entry* e = start(path, AE_IFREG, perm);
    archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    finish(e);
    REQUIRE(archive_write_data(a_, data.data(), data.size()) ==
            static_cast<la_ssize_t>(data.size()));
    return *this;
  }
  // A file of `size` zero bytes, written in pieces (a bomb's payload).
  TarBuilder& zeros(const std::string& path, std::uint64_t size) {
    archive_entry* e = start(path, AE_IFREG, 0644);
    archive_entry_set_size(e, static_cast<la_int64_t>(size));
    finish(e);
    const std::string chunk(1 << 20, '\0');
    for (std::uint64_t done = 0; done < size; done += chunk.size())
      archive_write_data(a_, chunk.data(), std::min<std::uint64_t>(chunk.size(), size - done));
    return *this;
  }
  TarBuilder& dir(const std::string& path) {
    finish(start(path, AE_IFDIR, 0755));
    return *this;
  }
  TarBuilder& symlink(const std::string& path, const std::string& target) {
    archive_entry* e = start(path, AE_IFLNK, 0777);
    archive_entry_set_symlink(e, target.c_str());
    finish(e);
    return *this;
  }
  TarBuilder& hardlink(const std::string& path, const std::string& target) {
    archive_entry* e = start(path, AE_IFREG, 0644);
    archive_entry_set_hardlink(e, target.c_str());
    archive_entry_set_size(e, 0);
    finish(e);
    return *this;
  }
  TarBuilder& special(const std::string& path, mode_t type) {
    archive_entry* e = start(path, type, 0644);
    archive_entry_set_rdev(e, makedev(1, 3));
    finish(e);
    return *this;
  }
  std::string bytes() {
    archive_write_close(a_);
    return out_;
  }

 private:
  static la_ssize_t append(archive*, void* out, const void* data, size_t size) {
    static_cast<std::string*>(out)->append(static_cast<const char*>(data), size);
    return static_cast<la_ssize_t>(size);
  }
  archive_entry* start(const std::string& path, mode_t type, mode_t perm) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, path.c_str());
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, perm);
    return e;
  }
  void finish(archive_entry* e) {
    REQUIRE(archive_write_header(a_, e) >= ARCHIVE_WARN);
    archive_entry_free(e);
  }

  archive* a_;
  std::string out_;
};

}  // namespace artifact_test
