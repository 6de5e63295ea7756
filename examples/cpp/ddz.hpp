// ddz.hpp: a small RAII wrapper over ddz's C ABI (ddz.h) for C++17 clients. Each handle frees
// itself; every error becomes a ddz::Error carrying the status and ddz's message; text
// results come back as std::string. Header-only: include it and link the library.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ddz.h"

namespace ddz {

// A failed call: the status (DDZ_ERR_*) and ddz's message.
class Error : public std::runtime_error {
  public:
    Error(int64_t status, const std::string &what)
        : std::runtime_error(what), status_(status) {}
    int64_t status() const { return status_; }

  private:
    int64_t status_;
};

namespace detail {
inline std::string last_error() {
    const char *why = ddz_last_error();
    return why ? why : "unknown error";
}

inline int64_t check(int64_t status) {
    if (status < 0) throw Error(status, last_error());
    return status;
}

// A text result by the two-call pattern: the length, then the text.
template <typename Call> std::string text(Call call) {
    int64_t needed = check(call(nullptr, 0));
    std::string out(static_cast<size_t>(needed) + 1, '\0');
    check(call(out.data(), out.size()));
    out.resize(static_cast<size_t>(needed));
    return out;
}

inline std::vector<std::string> lines(const std::string &text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

template <typename T, void (*Free)(T *)> struct Deleter {
    void operator()(T *p) const { Free(p); }
};
}  // namespace detail

// A rule set: a profile name (classic, laizi, ...) and optional wild ranks.
class Rules {
  public:
    explicit Rules(const std::string &profile, const char *laizi = nullptr)
        : handle_(ddz_rules_new(profile.c_str(), laizi)) {
        if (!handle_) throw Error(DDZ_ERR_RULES, detail::last_error());
    }
    const DdzRules *get() const { return handle_.get(); }

    std::vector<std::string> legal_moves(const std::string &hand, const char *beat = nullptr) const {
        return detail::lines(detail::text([&](char *buf, size_t len) {
            return ddz_legal_moves(get(), hand.c_str(), beat, buf, len);
        }));
    }
    std::vector<std::string> classify(const std::string &cards) const {
        return detail::lines(detail::text(
            [&](char *buf, size_t len) { return ddz_classify(get(), cards.c_str(), buf, len); }));
    }
    bool beats(const std::string &a, const std::string &b) const {
        return detail::check(ddz_beats(get(), a.c_str(), b.c_str())) == 1;
    }

  private:
    std::unique_ptr<DdzRules, detail::Deleter<DdzRules, ddz_rules_free>> handle_;
};

// A game under a rule set, from a seed.
class Game {
  public:
    Game(const Rules &rules, uint64_t seed) : handle_(ddz_game_new(rules.get(), seed)) {
        if (!handle_) throw Error(DDZ_ERR_NULL, detail::last_error());
    }
    const DdzGame *get() const { return handle_.get(); }

    // The seat to act, or -1 once the game is over.
    int to_act() const {
        int seat = ddz_game_to_act(get());
        if (seat < -1) detail::check(seat);
        return seat;
    }
    std::vector<std::string> legal_actions() const {
        return detail::lines(detail::text(
            [&](char *buf, size_t len) { return ddz_game_legal_actions(get(), buf, len); }));
    }
    void act(const std::string &action) { detail::check(ddz_game_act(handle_.get(), action.c_str())); }
    std::string view_json(int seat) const {
        return detail::text(
            [&](char *buf, size_t len) { return ddz_game_view_json(get(), seat, buf, len); });
    }
    std::string record_json() const {
        return detail::text(
            [&](char *buf, size_t len) { return ddz_game_record_json(get(), buf, len); });
    }
    std::vector<int64_t> scores() const {
        std::vector<int64_t> out(3);
        detail::check(ddz_game_scores(get(), out.data()));
        return out;
    }

  private:
    std::unique_ptr<DdzGame, detail::Deleter<DdzGame, ddz_game_free>> handle_;
};

// A robot from its spec (ddzlib, search:iters=100, ...).
class Bot {
  public:
    Bot(const std::string &spec, const Rules &rules, uint64_t seed)
        : handle_(ddz_bot_new(spec.c_str(), rules.get(), seed)) {
        if (!handle_) throw Error(DDZ_ERR_BOT, detail::last_error());
    }
    // The robot's action for the seat to act (pass it to Game::act).
    std::string act(const Game &game) {
        return detail::text(
            [&](char *buf, size_t len) { return ddz_bot_act(handle_.get(), game.get(), buf, len); });
    }

  private:
    std::unique_ptr<DdzBot, detail::Deleter<DdzBot, ddz_bot_free>> handle_;
};

}  // namespace ddz
