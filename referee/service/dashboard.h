// The dashboard's files (referee/service/dashboard/), embedded in the binary at build time so
// the daemon needs no files at run time. embed_dashboard.cmake turns every file of that folder
// into a byte array of a generated source that defines these functions.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace referee::service {

struct DashboardFile {
  std::string_view path;          // relative to dashboard/: "index.html", "js/app.js"
  std::string_view content_type;  // from the extension
  std::string_view bytes;
};

// The file at `path` (relative, '/'-separated), or nothing. Only embedded names match: there is
// no file system behind it.
std::optional<DashboardFile> find_dashboard_file(std::string_view path);
std::vector<DashboardFile> dashboard_files();

}  // namespace referee::service
