// The engine's line protocol (docs/ENGINE_PROTOCOL.md), in the spirit of UCI and GTP. The loop
// takes one input line at a time and writes answer lines through a callback; it knows nothing of
// the transport, so it serves stdin/stdout, a socket or a test's string stream alike.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ai/levels.h"
#include "ai/search.h"
#include "common/position.h"
#include "common/variant.h"

namespace amazons::ai {

class EngineProtocol {
 public:
  // Receives one answer line (without the newline). Calls are serialised, but come from the
  // thread calling handle() and from the search thread (info and bestmove lines).
  using Output = std::function<void(std::string_view line)>;

  EngineProtocol(AiConfig config, std::filesystem::path rules_dir, Output out);
  ~EngineProtocol();
  EngineProtocol(const EngineProtocol&) = delete;
  EngineProtocol& operator=(const EngineProtocol&) = delete;

  // Handles one line. Returns false after `quit` (nothing more should be sent). A malformed or
  // refused command is answered with a line "error ..." and changes nothing. Blocks only for
  // perft, for quit (which stops a running search and waits for its bestmove line), and while
  // pondering for ponderhit and stop (which end the ponder search, a millisecond or so).
  bool handle(std::string_view line);

  // End of input: waits for a running search to finish (an infinite one is stopped first).
  void finish();

 private:
  void say(std::string_view line);
  void error(std::string_view message) { say("error " + std::string(message)); }
  bool searching() const { return searching_.load(); }
  bool refuse_while_searching(std::string_view command);

  void cmd_rules(const std::vector<std::string>& args);
  void cmd_position(const std::vector<std::string>& args);
  void cmd_moves(const std::vector<std::string>& args, std::size_t first);
  void cmd_level(const std::vector<std::string>& args);
  void cmd_limits(const std::vector<std::string>& args);
  void cmd_setting(const std::vector<std::string>& args);
  void cmd_go(const std::vector<std::string>& args);
  void cmd_stop();
  void cmd_ponderhit();
  // The limits a go command gives on the current position (and whether it says ponder); on a
  // bad argument answers the error and returns nullopt.
  std::optional<SearchLimits> parse_go(const std::vector<std::string>& args, bool& ponder);
  // Progress lines, and the bestmove line when `answer` (a ponder search does not answer).
  SearchCallbacks callbacks(bool answer);
  static std::string bestmove_line(const SearchResult& r);
  void cmd_perft(const std::vector<std::string>& args);
  void cmd_eval();
  void cmd_show();
  void cmd_help();

  SearchSettings current_settings() const;
  // Creates the search (anew when the search kind changed) or gives it the current settings.
  // Done when the settings change (and on isready), never inside go: allocating and zeroing the
  // hash table can take longer than the move's whole budget, and go's clock must be spent on
  // searching.
  void prepare_search();
  // Plays `texts` on a copy of `pos`; on success replaces pos, else answers the error.
  bool apply_moves(Position& pos, const std::vector<std::string>& texts, std::size_t first);

  AiConfig config_;
  std::filesystem::path rules_dir_;
  Output out_;
  std::mutex out_mutex_;

  RuleVariant variant_;
  Position position_;
  Level level_;
  int threads_ = 1;
  std::size_t hash_mb_ = 64;
  int multipv_ = 1;  // lines per depth; above 1 the search is alpha-beta (current_settings)
  std::unique_ptr<Search> search_;
  bool unbounded_ = false;  // the last search runs until stopped
  // Between go ponder and ponderhit or stop; only the thread calling handle() touches these.
  bool pondering_ = false;
  SearchLimits ponder_limits_;  // the go ponder command's limits, applied from the ponderhit
  // From go until just before its bestmove line: a client that has read bestmove may send the
  // next command at once, while the search thread is still winding down.
  std::atomic<bool> searching_{false};
};

}  // namespace amazons::ai
