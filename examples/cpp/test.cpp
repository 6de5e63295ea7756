// The C++ wrapper (ddz.hpp) tested: rules queries, whole games robot against robot on every
// profile with zero-sum scores, and errors as exceptions with ddz's message.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "ddz.hpp"

static void require(bool ok, const std::string &what) {
    if (!ok) {
        std::cerr << "test: " << what << "\n";
        std::exit(1);
    }
}

template <typename Call> static void expect_error(Call call, int64_t status, const std::string &what) {
    try {
        call();
    } catch (const ddz::Error &e) {
        require(e.status() == status, what + ": status " + std::to_string(e.status()));
        std::cout << "error as expected, " << what << ": " << e.what() << "\n";
        return;
    }
    require(false, what + " did not throw");
}

int main() {
    ddz::Rules classic("classic");
    auto moves = classic.legal_moves("334455");
    require(std::find(moves.begin(), moves.end(), "334455") != moves.end(), "334455 is a pair chain lead");
    auto follows = classic.legal_moves("334455", "22");
    require(follows.size() == 1 && follows[0] == "pass", "nothing beats 22 but the pass");
    require(classic.beats("BR", "2222"), "the rocket beats a bomb");
    require(classic.classify("333444555666").size() > 1, "an airplane has several readings");

    expect_error([] { ddz::Rules("poker"); }, DDZ_ERR_RULES, "an unknown profile");
    expect_error([&] { classic.legal_moves("33Z"); }, DDZ_ERR_CARDS, "an invalid hand");
    expect_error([&] { ddz::Bot("champion", classic, 1); }, DDZ_ERR_BOT, "an unknown robot");

    const char *profiles[] = {"classic", "laizi", "tiandi", "douzero", "rlcard", "botzone", "huanle"};
    for (const char *profile : profiles) {
        ddz::Rules rules(profile);
        for (uint64_t seed = 0; seed < 4; seed++) {
            ddz::Game game(rules, seed);
            ddz::Bot bots[3] = {ddz::Bot("ddzlib", rules, seed), ddz::Bot("greedy", rules, seed),
                                ddz::Bot("random", rules, seed)};
            if (seed == 0) {
                expect_error([&] { game.act("double 3"); }, DDZ_ERR_ILLEGAL, "an illegal action");
            }
            for (int seat; (seat = game.to_act()) != -1;) {
                std::string action = bots[seat].act(game);
                auto legal = game.legal_actions();
                require(std::find(legal.begin(), legal.end(), action) != legal.end(),
                        action + " is legal");
                game.act(action);
            }
            auto scores = game.scores();
            require(scores[0] + scores[1] + scores[2] == 0, "zero-sum scores");
            require(game.record_json().find("\"result\"") != std::string::npos, "a record");
        }
        std::cout << profile << ": 4 games\n";
    }
    return 0;
}
