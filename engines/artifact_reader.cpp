#include "engines/artifact_reader.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include "base/input_limits.h"
#include "base/text.h"

namespace referee::engines::detail {

namespace {

// Linux's NAME_MAX and PATH_MAX - 1: longer would be refused while writing, after the check.
constexpr std::size_t kMaxName = 255;
constexpr std::size_t kMaxPath = 4095;

// The most of a name a message shows.
constexpr std::size_t kShownBytes = 200;

// Headers, pax records and padding an entry may add to the decompressed stream beyond its data.
constexpr std::uint64_t kStreamOverheadPerEntry = 8 << 10;

using ReadArchive = std::unique_ptr<archive, int (*)(archive*)>;

std::string mebibytes(std::uint64_t bytes) {
  char buf[48];
  if (bytes % (1 << 20) == 0)
    std::snprintf(buf, sizeof buf, "%llu MiB", static_cast<unsigned long long>(bytes >> 20));
  else
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  return buf;
}

Error refuse(const std::string& path, const std::string& why) {
  return Error{"artifact entry '" + printable(path) + "': " + why};
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  for (std::string_view part : text::split(path, '/')) parts.emplace_back(part);
  return parts;
}

const char* type_word(mode_t type) {
  switch (type) {
    case AE_IFCHR:
      return "a character device";
    case AE_IFBLK:
      return "a block device";
    case AE_IFIFO:
      return "a FIFO";
    case AE_IFSOCK:
      return "a socket";
    default:
      return "an entry of an unknown type";
  }
}

// The rules on an entry's place among the earlier ones: no duplicate, nothing below a file or a
// symbolic link, no file where earlier entries made a directory.
class PathTable {
 public:
  std::string problem(const std::string& path, EntryType type) {
    const std::vector<std::string> parts = split_path(path);
    std::string prefix;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      prefix += (i ? "/" : "") + parts[i];
      auto it = types_.find(prefix);
      if (it == types_.end()) {
        types_[prefix] = Implicit::Directory;
      } else if (it->second == Implicit::File) {
        return "inside '" + printable(prefix) + "', which is a file";
      } else if (it->second == Implicit::Symlink) {
        return "inside '" + printable(prefix) + "', which is a symbolic link";
      }
    }
    auto it = types_.find(path);
    if (it != types_.end()) {
      if (it->second == Implicit::Directory && type == EntryType::Directory) {
        it->second = Implicit::ExplicitDirectory;
        return "";
      }
      if (it->second == Implicit::Directory) return "a non-directory where earlier entries lie";
      return "a duplicate path";
    }
    types_[path] = type == EntryType::Directory ? Implicit::ExplicitDirectory
                   : type == EntryType::Symlink ? Implicit::Symlink
                                                : Implicit::File;
    return "";
  }

  // Paths seen: the entries and the directories their paths imply.
  std::size_t size() const { return types_.size(); }

 private:
  enum class Implicit { Directory, ExplicitDirectory, File, Symlink };
  std::map<std::string, Implicit> types_;
};

}  // namespace

std::string printable(std::string_view text) {
  return text::printable(limits::shortened(text, kShownBytes));
}

Expected<std::string> normalise_entry_path(std::string_view raw) {
  if (raw.empty()) return Error{"an empty name"};
  for (char c : raw)
    if (text::is_control(c)) return Error{"a control character in its name"};
  if (raw.front() == '/') return Error{"an absolute path"};
  std::string out;
  for (const std::string& part : split_path(raw)) {
    if (part.empty() || part == ".") continue;
    if (part == "..") return Error{"a path with a '..' component"};
    if (part.size() > kMaxName) return Error{"a name longer than 255 bytes"};
    out += (out.empty() ? "" : "/") + part;
  }
  if (out.size() > kMaxPath) return Error{"a path longer than 4095 bytes"};
  return out;
}

std::string symlink_target_problem(const std::string& link_path, const std::string& target) {
  if (target.empty()) return "a symbolic link with an empty target";
  if (target.size() > kMaxPath) return "a symbolic link whose target is longer than 4095 bytes";
  if (target.front() == '/')
    return "a symbolic link to an absolute path ('" + printable(target) + "')";
  // The link's directory is made of real directories (nothing lies below a link), so its depth
  // is the number of '/' in its path; the leading ".." climb from there, and names after them only
  // go down (through links that themselves stay inside).
  std::size_t depth = 0;
  for (char c : link_path) depth += c == '/';
  bool named = false;
  for (const std::string& part : split_path(target)) {
    if (part.empty() || part == ".") continue;
    if (part != "..") {
      named = true;
      continue;
    }
    if (named)
      return "a symbolic link with '..' after a name ('" + printable(target) +
             "'): write it as ../ first, then names";
    if (depth == 0) return "a symbolic link leaving the artifact ('" + printable(target) + "')";
    --depth;
  }
  return "";
}

Expected<ArtifactManifest> walk_archive(std::string_view bytes, const ArtifactLimits& limits,
                                        ArtifactSink& sink) {
  if (bytes.empty()) return Error{"the artifact is empty: not an archive"};
  if (bytes.size() > limits.max_archive_bytes)
    return Error{"the archive is " + mebibytes(bytes.size()) + ", more than the limit of " +
                 mebibytes(limits.max_archive_bytes)};
  ReadArchive a(archive_read_new(), &archive_read_free);
  if (!a) return Error{"libarchive: out of memory", ErrorKind::Io};
  // Each filter must be the library's own: ARCHIVE_WARN would mean an external program.
  if (archive_read_support_format_tar(a.get()) != ARCHIVE_OK ||
      archive_read_support_filter_gzip(a.get()) != ARCHIVE_OK ||
      archive_read_support_filter_bzip2(a.get()) != ARCHIVE_OK ||
      archive_read_support_filter_xz(a.get()) != ARCHIVE_OK ||
      archive_read_support_filter_zstd(a.get()) != ARCHIVE_OK)
    return Error{"libarchive lacks its own tar, gzip, bzip2, xz or zstd support", ErrorKind::Io};
  if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK)
    return Error{std::string("not a tar archive: ") + archive_error_string(a.get())};

  const std::uint64_t stream_limit =
      limits.max_extracted_bytes + (limits.max_files + 1) * kStreamOverheadPerEntry;
  auto stream_too_long = [&]() {
    return static_cast<std::uint64_t>(archive_filter_bytes(a.get(), 0)) > stream_limit;
  };
  ArtifactManifest manifest;
  PathTable paths;
  std::vector<char> buffer(1 << 16);
  for (std::size_t index = 0;; ++index) {
    archive_entry* e = nullptr;
    const int r = archive_read_next_header(a.get(), &e);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN) {
      const std::string why = archive_error_string(a.get()) ? archive_error_string(a.get()) : "";
      if (index == 0) return Error{"not a tar archive: " + why};
      return Error{"a damaged archive after entry '" +
                   printable(manifest.entries.empty() ? "" : manifest.entries.back().path) +
                   "': " + why};
    }
    const char* raw_name = archive_entry_pathname(e);
    if (!raw_name) raw_name = archive_entry_pathname_utf8(e);
    if (!raw_name) return Error{"an archive entry whose name cannot be read"};
    if (stream_too_long())
      return refuse(raw_name, "the decompressed archive exceeds " + mebibytes(stream_limit));
    Expected<std::string> path = normalise_entry_path(raw_name);
    if (!path) return refuse(raw_name, path.error());
    const mode_t type = archive_entry_filetype(e);
    if (path->empty()) {
      if (type == AE_IFDIR && !archive_entry_hardlink(e)) continue;  // the root itself
      return refuse(raw_name, "a name that is the root");
    }
    if (archive_entry_hardlink(e))
      return refuse(*path, std::string("a hard link (to '") + printable(archive_entry_hardlink(e)) +
                               "'): hard links are refused; pack with tar --hard-dereference");
    ArtifactEntry entry;
    entry.path = *path;
    if (type == AE_IFREG) {
      entry.type = EntryType::File;
      entry.size = static_cast<std::uint64_t>(archive_entry_size(e));
      entry.executable = (archive_entry_perm(e) & 0111) != 0;
    } else if (type == AE_IFDIR) {
      entry.type = EntryType::Directory;
    } else if (type == AE_IFLNK) {
      entry.type = EntryType::Symlink;
      const char* target = archive_entry_symlink(e);
      entry.target = target ? target : "";
      const std::string problem = symlink_target_problem(entry.path, entry.target);
      if (!problem.empty()) return refuse(entry.path, problem);
    } else {
      return refuse(entry.path, type_word(type));
    }
    const std::string place = paths.problem(entry.path, entry.type);
    if (!place.empty()) return refuse(entry.path, place);
    // Implied directories count: deep paths must not make a million of them.
    if (paths.size() > limits.max_files)
      return refuse(entry.path, "more than " + std::to_string(limits.max_files) +
                                    " entries, with the directories their paths imply");
    // The declared size first: a bomb's first big entry is refused before it is inflated.
    if (entry.size > limits.max_extracted_bytes - manifest.total_bytes)
      return refuse(entry.path,
                    "the files add up to more than " + mebibytes(limits.max_extracted_bytes));
    if (Status s = sink.begin(entry); !s) return s.failure();
    std::uint64_t read = 0;
    if (entry.type == EntryType::File) {
      for (;;) {
        const la_ssize_t n = archive_read_data(a.get(), buffer.data(), buffer.size());
        if (n == 0) break;
        if (n < 0)
          return refuse(entry.path,
                        std::string("a damaged archive: ") + archive_error_string(a.get()));
        read += static_cast<std::uint64_t>(n);
        if (read > entry.size || stream_too_long())
          return refuse(entry.path, "more data than its header declares");
        if (Status s = sink.data(buffer.data(), static_cast<std::size_t>(n)); !s)
          return s.failure();
      }
      if (read != entry.size) return refuse(entry.path, "less data than its header declares");
    }
    if (Status s = sink.end(); !s) return s.failure();
    manifest.total_bytes += read;
    manifest.entries.push_back(std::move(entry));
  }
  if (manifest.entries.empty()) return Error{"an empty archive: no entry but the root"};
  return manifest;
}

}  // namespace referee::engines::detail
