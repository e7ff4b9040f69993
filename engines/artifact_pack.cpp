// read_artifact (engines/artifact.h): a host file or directory as an artifact's bytes, a
// directory packed into the canonical tar described there.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "engines/artifact.h"
#include "engines/artifact_reader.h"

namespace referee::engines {

namespace {

using WriteArchive = std::unique_ptr<archive, int (*)(archive*)>;

const char* const kTarSuffixes[] = {".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar.zst"};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Error cannot(const std::string& what, const std::string& path) {
  return Error{"cannot " + what + " '" + detail::printable(path) + "': " + std::strerror(errno),
               errno == ENOENT ? ErrorKind::NotFound : ErrorKind::Io};
}

struct HostEntry {
  std::string rel;  // the path in the archive
  struct stat st {};
};

const char* odd_type(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "an entry of an unknown type";
}

// The entries below `root`, sorted by path bytes, within the limits.
Expected<std::vector<HostEntry>> list_tree(const std::string& root, const ArtifactLimits& limits) {
  std::vector<HostEntry> entries;
  std::uint64_t total = 0;
  std::error_code ec;
  namespace fs = std::filesystem;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    HostEntry entry;
    entry.rel = it->path().lexically_relative(root).string();
    if (::lstat(it->path().c_str(), &entry.st) != 0) return cannot("read", it->path().string());
    if (!S_ISREG(entry.st.st_mode) && !S_ISDIR(entry.st.st_mode) && !S_ISLNK(entry.st.st_mode))
      return Error{"'" + detail::printable(it->path().string()) + "' is " +
                   odd_type(entry.st.st_mode) +
                   ": an artifact holds only files, directories and symbolic links"};
    if (S_ISREG(entry.st.st_mode)) total += static_cast<std::uint64_t>(entry.st.st_size);
    if (total > limits.max_extracted_bytes)
      return Error{"'" + root + "': its files add up to more than " +
                   std::to_string(limits.max_extracted_bytes) + " bytes (the limit)"};
    entries.push_back(std::move(entry));
    if (entries.size() > limits.max_files)
      return Error{"'" + root + "': more than " + std::to_string(limits.max_files) +
                   " entries (the limit)"};
  }
  if (ec) return Error{"cannot list '" + root + "': " + ec.message(), ErrorKind::Io};
  std::sort(entries.begin(), entries.end(),
            [](const HostEntry& a, const HostEntry& b) { return a.rel < b.rel; });
  return entries;
}

la_ssize_t append(archive*, void* out, const void* data, size_t size) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(data), size);
  return static_cast<la_ssize_t>(size);
}

Status write_file_data(archive* a, const std::string& path, std::uint64_t size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return cannot("read", path);
  std::vector<char> buffer(1 << 16);
  std::uint64_t done = 0;
  Status status = Ok{};
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = cannot("read", path);
      break;
    }
    if (n == 0) break;
    done += static_cast<std::uint64_t>(n);
    if (done > size) break;
    if (archive_write_data(a, buffer.data(), static_cast<std::size_t>(n)) != n) {
      status = Error{"cannot pack '" + path + "': " + archive_error_string(a), ErrorKind::Io};
      break;
    }
  }
  ::close(fd);
  if (status && done != size)
    return Error{"'" + detail::printable(path) + "' changed while it was packed", ErrorKind::Io};
  return status;
}

Expected<std::string> pack_tree(const std::string& root, const ArtifactLimits& limits) {
  Expected<std::vector<HostEntry>> entries = list_tree(root, limits);
  if (!entries) return entries.failure();
  std::string out;
  WriteArchive a(archive_write_new(), &archive_write_free);
  if (!a || archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK ||
      archive_write_add_filter_none(a.get()) != ARCHIVE_OK ||
      archive_write_set_bytes_in_last_block(a.get(), 1) != ARCHIVE_OK ||
      archive_write_open2(a.get(), &out, nullptr, &append, nullptr, nullptr) != ARCHIVE_OK)
    return Error{"cannot start a tar archive (libarchive)", ErrorKind::Io};
  std::unique_ptr<archive_entry, void (*)(archive_entry*)> e(archive_entry_new(),
                                                             &archive_entry_free);
  for (const HostEntry& host : *entries) {
    const std::string path = root + "/" + host.rel;
    archive_entry_clear(e.get());
    archive_entry_set_pathname(e.get(), host.rel.c_str());
    archive_entry_set_uid(e.get(), 0);
    archive_entry_set_gid(e.get(), 0);
    archive_entry_set_mtime(e.get(), 0, 0);
    std::uint64_t size = 0;
    if (S_ISDIR(host.st.st_mode)) {
      archive_entry_set_filetype(e.get(), AE_IFDIR);
      archive_entry_set_perm(e.get(), 0755);
    } else if (S_ISLNK(host.st.st_mode)) {
      std::string target(4096, '\0');
      const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
      if (n < 0) return cannot("read the symbolic link", path);
      target.resize(static_cast<std::size_t>(n));
      archive_entry_set_filetype(e.get(), AE_IFLNK);
      archive_entry_set_perm(e.get(), 0777);
      archive_entry_set_symlink(e.get(), target.c_str());
    } else {
      size = static_cast<std::uint64_t>(host.st.st_size);
      archive_entry_set_filetype(e.get(), AE_IFREG);
      archive_entry_set_perm(e.get(), (host.st.st_mode & S_IXUSR) ? 0755 : 0644);
      archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
    }
    if (archive_write_header(a.get(), e.get()) < ARCHIVE_WARN)
      return Error{
          "cannot pack '" + detail::printable(path) + "': " + archive_error_string(a.get()),
          ErrorKind::Io};
    if (size > 0)
      if (Status s = write_file_data(a.get(), path, size); !s) return s.failure();
    if (out.size() > limits.max_archive_bytes) break;
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK)
    return Error{"cannot finish the archive of '" + root + "': " + archive_error_string(a.get()),
                 ErrorKind::Io};
  return out;
}

Expected<std::string> read_whole_file(const std::string& path, std::uint64_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return cannot("read", path);
  std::string bytes;
  std::vector<char> buffer(1 << 16);
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Error error = cannot("read", path);
      ::close(fd);
      return error;
    }
    if (n == 0) break;
    bytes.append(buffer.data(), static_cast<std::size_t>(n));
    if (bytes.size() > limit) break;  // the caller refuses it by its size
  }
  ::close(fd);
  return bytes;
}

}  // namespace

Expected<ArtifactBytes> read_artifact(const std::string& host_path, const ArtifactLimits& limits) {
  struct stat st {};
  if (::stat(host_path.c_str(), &st) != 0) return cannot("read the artifact", host_path);
  ArtifactBytes result;
  if (S_ISDIR(st.st_mode)) {
    Expected<std::string> packed = pack_tree(host_path, limits);
    if (!packed) return packed.failure();
    result.kind = ArtifactKind::Tree;
    result.bytes = std::move(*packed);
  } else if (S_ISREG(st.st_mode)) {
    const std::string name = std::filesystem::path(host_path).filename().string();
    const bool archive = std::any_of(std::begin(kTarSuffixes), std::end(kTarSuffixes),
                                     [&](const char* suffix) { return ends_with(name, suffix); });
    Expected<std::string> bytes = read_whole_file(host_path, limits.max_archive_bytes);
    if (!bytes) return bytes.failure();
    result.kind = archive ? ArtifactKind::Tree : ArtifactKind::File;
    result.file_name = archive ? "" : name;
    result.bytes = std::move(*bytes);
  } else {
    return Error{"'" + detail::printable(host_path) + "' is neither a file nor a directory"};
  }
  if (result.bytes.size() > limits.max_archive_bytes)
    return Error{"'" + detail::printable(host_path) + "': more than " +
                 std::to_string(limits.max_archive_bytes) + " bytes (the limit)"};
  Expected<ArtifactManifest> manifest =
      inspect_artifact(result.kind, result.file_name, result.bytes, limits);
  if (!manifest)
    return Error{"'" + detail::printable(host_path) + "': " + manifest.error(), manifest.kind()};
  result.sha256 = bytes_sha256(result.bytes);
  return result;
}

}  // namespace referee::engines
