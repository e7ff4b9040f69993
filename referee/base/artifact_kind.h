// What the bytes of an engine artifact are (engines/ARTIFACTS.md): the one file itself, or a tar
// archive of a directory. Shared by the layer that reads and extracts artifacts (engines/) and the
// one that stores them (storage/), which know nothing of each other.
#pragma once

namespace referee {

enum class ArtifactKind {
  File,  // the bytes are the one file (a static binary, a script); its name is kept beside them
  Tree,  // the bytes are a tar archive of a directory
};

}  // namespace referee
