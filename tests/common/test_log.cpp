#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/log.h"

using namespace amazons;

namespace {

// What the log writes for the calls `write` makes, as text.
template <class F>
std::string logged(Log::Level min, F&& write) {
  // A temporary file rather than open_memstream, which Windows does not have.
  std::FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  {
    Log log(out, min);
    write(log);
  }
  std::fflush(out);
  std::rewind(out);
  std::string text;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, out)) > 0;) text.append(chunk, n);
  std::fclose(out);
  return text;
}

}  // namespace

TEST_CASE("log: one logfmt line per event, values that need it are quoted") {
  const std::string text = logged(Log::Level::Info, [](Log& log) {
    log.info("game_start", {{"game", "17"}, {"opponent", "alice"}});
    log.warn("engine_failure", {{"why", "printed \"banana\" = garbage"}, {"empty", ""}});
    log.debug("hidden", {});
  });
  const auto first_end = text.find('\n');
  REQUIRE(first_end != std::string::npos);
  const std::string first = text.substr(0, first_end);
  CHECK(first.rfind("ts=", 0) == 0);
  CHECK(first.find(" level=info event=game_start game=17 opponent=alice") != std::string::npos);
  const std::string second = text.substr(first_end + 1);
  CHECK(second.find(" level=warn event=engine_failure why=\"printed \\\"banana\\\" = garbage\" "
                    "empty=\"\"\n") != std::string::npos);
  CHECK(text.find("hidden") == std::string::npos);  // below the minimum level
}
