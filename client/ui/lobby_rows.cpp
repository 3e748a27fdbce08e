// The lobby's rows in the catalogue's words (online_shared.h).
#include "client/game_choices.h"
#include "client/ui/online_shared.h"
#include "client/words.h"

namespace amazons::client::ui {

std::string turn_row(const Catalogue& t, const protocol::TurnInfo& x) {
  return t("desktop.lobby.turn_row", {{"game", x.game},
                                      {"opponent", x.opponent},
                                      {"time", time_choice_text(t, x.time)},
                                      {"left", time_left_text(t, x.left_ms)}});
}

std::string open_game_row(const Catalogue& t, const protocol::GameSummary& g, bool mine) {
  if (mine)
    return t("desktop.lobby.own_row", {{"game", g.game},
                                       {"rules", rules_name(t, g.rules)},
                                       {"time", time_choice_text(t, g.time)}});
  const protocol::PlayerRef& creator = g.white ? *g.white : *g.black;
  return t("desktop.lobby.open_row",
           {{"player", player_text(t, creator)},
            {"rules", rules_name(t, g.rules)},
            {"time", time_choice_text(t, g.time)},
            {"rated", t(g.rated ? "game.rated" : "game.casual")},
            {"side", t(g.white ? "lobby.you_play_black" : "lobby.you_play_white")}});
}

std::string live_game_row(const Catalogue& t, const protocol::GameSummary& g) {
  return t("desktop.lobby.live_row",
           {{"white", player_text(t, g.white.value_or(protocol::PlayerRef{}))},
            {"black", player_text(t, g.black.value_or(protocol::PlayerRef{}))},
            {"rules", rules_name(t, g.rules)},
            {"time", time_choice_text(t, g.time)},
            {"n", g.plies + 1}});
}

std::string challenge_row(const Catalogue& t, const protocol::ChallengeReceived& c) {
  return t("desktop.lobby.challenge_row", {{"player", player_text(t, c.from)},
                                           {"rules", rules_name(t, c.rules)},
                                           {"time", time_choice_text(t, c.time)},
                                           {"rated", t(c.rated ? "game.rated" : "game.casual")}});
}

std::string player_row(const Catalogue& t, const protocol::OnlinePlayer& p) {
  return t("desktop.lobby.player_row",
           {{"player", player_text(t, protocol::PlayerRef{p.name, p.rating, p.bot})},
            {"count", p.games}});
}

}  // namespace amazons::client::ui
