// The catalogues the clients ship (i18n/en.json, i18n/zh-CN.json), loaded once for tests that
// check what the client core says in either language.
#pragma once

#include <filesystem>

#include "client/catalogue.h"
#include "tests/test_paths.h"

namespace amazons::test {

inline const client::Catalogue& shipped_catalogue(const char* language) {
  static const client::Catalogue en =
      client::Catalogue::load(std::filesystem::path(source_dir()) / "i18n", "en").catalogue;
  static const client::Catalogue zh =
      client::Catalogue::load(std::filesystem::path(source_dir()) / "i18n", "zh-CN").catalogue;
  return std::string_view(language) == "en" ? en : zh;
}
inline const client::Catalogue& english() { return shipped_catalogue("en"); }
inline const client::Catalogue& chinese() { return shipped_catalogue("zh-CN"); }

}  // namespace amazons::test
