#include "engines/artifact.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/text.h"
#include "engines/artifact_reader.h"
#include "engines/owned_fd.h"

namespace referee::engines {

namespace {

using detail::printable;

using Fd = OwnedFd;

Error io_error(const std::string& what, const std::string& path) {
  return Error{"cannot " + what + " '" + printable(path) + "': " + std::strerror(errno),
               ErrorKind::Io};
}

// A File artifact's name: one plain name, no directory.
std::string file_name_problem(const std::string& name) {
  if (name.empty()) return "a file artifact needs a file name";
  if (name == "." || name == "..") return "the file name '" + name + "' is not a file's";
  if (name.find('/') != std::string::npos)
    return "the file name '" + printable(name) + "' holds a '/'";
  if (name.size() > 255) return "the file name is longer than 255 bytes";
  for (char c : name)
    if (text::is_control(c))
      return "the file name '" + printable(name) + "' holds a control character";
  return "";
}

bool file_artifact_executable(std::string_view bytes) {
  return bytes.substr(0, 2) == "#!" || bytes.substr(0, 4) == std::string_view(
                                                                 "\x7f"
                                                                 "ELF",
                                                                 4);
}

std::string last_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Writes the entries of a walk below `root`, never following a symbolic link.
class TreeWriter : public detail::ArtifactSink {
 public:
  explicit TreeWriter(int root) : root_(root) {}

  Status begin(const ArtifactEntry& entry) override {
    path_ = entry.path;
    Expected<Fd> parent = open_parent(entry.path);
    if (!parent) return parent.failure();
    const std::string name = last_name(entry.path);
    switch (entry.type) {
      case EntryType::Directory: {
        if (::mkdirat(parent->get(), name.c_str(), 0755) != 0 && errno != EEXIST)
          return io_error("create the directory", entry.path);
        Fd dir(
            ::openat(parent->get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (dir.get() < 0 || ::fchmod(dir.get(), 0755) != 0)
          return io_error("open the directory", entry.path);
        return Ok{};
      }
      case EntryType::Symlink:
        if (::symlinkat(entry.target.c_str(), parent->get(), name.c_str()) != 0)
          return io_error("create the symbolic link", entry.path);
        return Ok{};
      case EntryType::File:
        file_ = Fd(::openat(parent->get(), name.c_str(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (file_.get() < 0) return io_error("create", entry.path);
        mode_ = entry.executable ? 0755 : 0644;
        return Ok{};
    }
    return Ok{};
  }

  Status data(const char* bytes, std::size_t size) override {
    while (size > 0) {
      const ssize_t n = ::write(file_.get(), bytes, size);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return io_error("write", path_);
      bytes += n;
      size -= static_cast<std::size_t>(n);
    }
    return Ok{};
  }

  Status end() override {
    if (file_.get() < 0) return Ok{};
    Status status = Ok{};
    if (::fchmod(file_.get(), mode_) != 0) status = io_error("set the mode of", path_);
    file_ = Fd();
    return status;
  }

 private:
  // The directory that holds `path`, its missing parents made (an archive may omit them).
  Expected<Fd> open_parent(const std::string& path) {
    Fd dir(::fcntl(root_, F_DUPFD_CLOEXEC, 0));
    if (dir.get() < 0) return io_error("open the root for", path);
    std::size_t start = 0;
    for (std::size_t slash; (slash = path.find('/', start)) != std::string::npos;
         start = slash + 1) {
      const std::string part = path.substr(start, slash - start);
      int fd = ::openat(dir.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0 && errno == ENOENT && ::mkdirat(dir.get(), part.c_str(), 0755) == 0) {
        fd = ::openat(dir.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) ::fchmod(fd, 0755);  // the umask's share undone
      }
      if (fd < 0) return io_error("open the directory", path.substr(0, slash));
      dir = Fd(fd);
    }
    return dir;
  }

  int root_;
  std::string path_;
  Fd file_;
  mode_t mode_ = 0644;
};

}  // namespace

const char* artifact_kind_name(ArtifactKind kind) {
  return kind == ArtifactKind::File ? "file" : "tree";
}

const ArtifactEntry* ArtifactManifest::find(const std::string& path) const {
  Expected<std::string> normal = detail::normalise_entry_path(path);
  if (!normal) return nullptr;
  for (const ArtifactEntry& entry : entries)
    if (entry.path == *normal) return &entry;
  return nullptr;
}

std::size_t ArtifactManifest::file_count() const {
  return static_cast<std::size_t>(std::count_if(
      entries.begin(), entries.end(), [](const auto& e) { return e.type == EntryType::File; }));
}

Expected<ArtifactManifest> inspect_artifact(ArtifactKind kind, const std::string& file_name,
                                            std::string_view bytes, const ArtifactLimits& limits) {
  if (kind == ArtifactKind::Tree) {
    detail::ArtifactSink reader;
    return detail::walk_archive(bytes, limits, reader);
  }
  if (std::string problem = file_name_problem(file_name); !problem.empty()) return Error{problem};
  const std::uint64_t limit = std::min(limits.max_extracted_bytes, limits.max_archive_bytes);
  if (bytes.size() > limit)
    return Error{"artifact file '" + printable(file_name) + "': " + std::to_string(bytes.size()) +
                 " bytes, more than the limit of " + std::to_string(limit)};
  ArtifactManifest manifest;
  manifest.entries.push_back(
      ArtifactEntry{file_name, EntryType::File, bytes.size(), file_artifact_executable(bytes), ""});
  manifest.total_bytes = bytes.size();
  return manifest;
}

Expected<ArtifactManifest> extract_artifact(ArtifactKind kind, const std::string& file_name,
                                            std::string_view bytes, const std::string& empty_dir,
                                            const ArtifactLimits& limits) {
  Expected<ArtifactManifest> manifest = inspect_artifact(kind, file_name, bytes, limits);
  if (!manifest) return manifest.failure();
  Fd root(::open(empty_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) return io_error("open the directory", empty_dir);
  std::error_code ec;
  if (!std::filesystem::is_empty(empty_dir, ec) || ec)
    return Error{"cannot extract into '" + empty_dir + "': not an empty directory",
                 ErrorKind::Conflict};
  TreeWriter writer(root.get());
  if (kind == ArtifactKind::Tree) return detail::walk_archive(bytes, limits, writer);
  const ArtifactEntry& entry = manifest->entries.front();
  if (Status s = writer.begin(entry); !s) return s.failure();
  if (Status s = writer.data(bytes.data(), bytes.size()); !s) return s.failure();
  if (Status s = writer.end(); !s) return s.failure();
  return manifest;
}

}  // namespace referee::engines
