// Where the build put amazons-engine, for the tests that run it as a process.
#pragma once

#include <filesystem>
#include "tests/test_paths.h"

namespace amazons::test {

inline const std::filesystem::path kEngine =
    std::filesystem::path(amazons::test::binary_dir()) / "ai" / "amazons-engine";

}  // namespace amazons::test
