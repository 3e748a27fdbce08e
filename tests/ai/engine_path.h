// Where the build put amazons-engine, for the tests that run it as a process.
#pragma once

#include <filesystem>

namespace amazons::test {

inline const std::filesystem::path kEngine =
    std::filesystem::path(AMAZONS_BINARY_DIR) / "ai" / "amazons-engine";

}  // namespace amazons::test
