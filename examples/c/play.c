/*
 * Whole games through ddz's C ABI: `search:iters=100` against two `ddzlib` robots, the
 * search robot in each seat in turn, on the profiles named, each record written to a file for
 * `ddz replay` to check. Before the games, the errors a client meets (a NULL rules pointer, an
 * invalid hand, an illegal action, an unknown robot) are provoked and must come back as
 * statuses with a message.
 *
 *   play RECORD_DIR GAMES PROFILE...     e.g.  play /tmp/records 100 classic
 *
 * Exit status 0 when every game ended with zero-sum scores and every error was reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddz.h"

/* Fails the run with what went wrong. */
static void fail(const char *what) {
    const char *why = ddz_last_error();
    fprintf(stderr, "play: %s: %s\n", what, why ? why : "(no message)");
    exit(1);
}

/* A text result in a buffer that grows to fit (the two-call pattern of ddz.h). */
typedef struct {
    char *data;
    size_t size;
} Text;

typedef int64_t (*TextCall)(void *handle, void *extra, char *buf, size_t len);

static int64_t call_actions(void *game, void *extra, char *buf, size_t len) {
    (void)extra;
    return ddz_game_legal_actions((const DdzGame *)game, buf, len);
}

static int64_t call_bot(void *bot, void *game, char *buf, size_t len) {
    return ddz_bot_act((DdzBot *)bot, (const DdzGame *)game, buf, len);
}

static int64_t call_record(void *game, void *extra, char *buf, size_t len) {
    (void)extra;
    return ddz_game_record_json((const DdzGame *)game, buf, len);
}

static const char *text_of(Text *text, TextCall call, void *handle, void *extra, const char *what) {
    int64_t needed = call(handle, extra, text->data, text->size);
    if (needed < 0) fail(what);
    if ((size_t)needed >= text->size) {
        text->size = (size_t)needed + 1;
        text->data = realloc(text->data, text->size);
        if (!text->data) {
            fprintf(stderr, "play: out of memory\n");
            exit(1);
        }
        if (call(handle, extra, text->data, text->size) != needed) fail(what);
    }
    return text->data;
}

/* An error the ABI must report: a negative status (or NULL) and a message. */
static void expect_error(int failed, const char *what) {
    const char *why = ddz_last_error();
    if (!failed || !why) {
        fprintf(stderr, "play: %s was not reported as an error\n", what);
        exit(1);
    }
    printf("error as expected, %s: %s\n", what, why);
}

static void provoke_errors(void) {
    char buf[256];
    expect_error(ddz_game_new(NULL, 1) == NULL, "a NULL rules pointer");
    DdzRules *rules = ddz_rules_new("classic", NULL);
    if (!rules) fail("classic rules");
    expect_error(ddz_legal_moves(rules, "33Z", NULL, buf, sizeof buf) == DDZ_ERR_CARDS,
                 "an invalid hand");
    DdzGame *game = ddz_game_new(rules, 1);
    if (!game) fail("a game");
    expect_error(ddz_game_act(game, "bid 9") == DDZ_ERR_ILLEGAL, "an illegal bid");
    expect_error(ddz_game_act(game, "3") == DDZ_ERR_ILLEGAL, "a play while bidding");
    expect_error(ddz_bot_new("champion", rules, 1) == NULL, "an unknown robot");
    expect_error(ddz_game_view_json(game, 7, buf, sizeof buf) == DDZ_ERR_ARGUMENT, "seat 7");
    ddz_game_free(game);
    ddz_rules_free(rules);
    ddz_rules_free(NULL);
}

/* Plays one game; returns the number of actions taken. */
static int play_game(const DdzRules *rules, uint64_t seed, const char *path, Text *text) {
    DdzGame *game = ddz_game_new(rules, seed);
    if (!game) fail("a game");
    DdzBot *bots[3];
    for (int s = 0; s < 3; s++) {
        const char *spec = (uint64_t)s == seed % 3 ? "search:iters=100" : "ddzlib";
        bots[s] = ddz_bot_new(spec, rules, seed * 3 + (uint64_t)s);
        if (!bots[s]) fail(spec);
    }
    int actions = 0;
    for (int seat; (seat = ddz_game_to_act(game)) != -1;) {
        if (seat < 0) fail("the seat to act");
        char action[128];
        const char *chosen = text_of(text, call_bot, bots[seat], game, "a robot's action");
        if (strlen(chosen) >= sizeof action) fail("an action too long");
        strcpy(action, chosen);
        const char *legal = text_of(text, call_actions, game, NULL, "the legal actions");
        /* The robot's action is one of the listed ones. */
        size_t n = strlen(action);
        const char *at = legal;
        int listed = 0;
        while (*at) {
            const char *end = strchr(at, '\n');
            size_t line = end ? (size_t)(end - at) : strlen(at);
            if (line == n && strncmp(at, action, n) == 0) listed = 1;
            at += line + (end ? 1 : 0);
        }
        if (!listed) {
            fprintf(stderr, "play: %s is not among the legal actions\n", action);
            exit(1);
        }
        if (ddz_game_act(game, action) != DDZ_OK) fail(action);
        actions++;
    }
    int64_t scores[3];
    if (ddz_game_scores(game, scores) != DDZ_OK) fail("the scores");
    if (scores[0] + scores[1] + scores[2] != 0) {
        fprintf(stderr, "play: scores do not sum to 0\n");
        exit(1);
    }
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        exit(1);
    }
    fputs(text_of(text, call_record, game, NULL, "the record"), out);
    fputc('\n', out);
    fclose(out);
    for (int s = 0; s < 3; s++) ddz_bot_free(bots[s]);
    ddz_game_free(game);
    return actions;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: play RECORD_DIR GAMES PROFILE...\n");
        return 2;
    }
    printf("ddz %s\n", ddz_version());
    provoke_errors();
    int games = atoi(argv[2]);
    Text text = {NULL, 0};
    for (int p = 3; p < argc; p++) {
        DdzRules *rules = ddz_rules_new(argv[p], NULL);
        if (!rules) fail(argv[p]);
        long actions = 0;
        for (int g = 0; g < games; g++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-%03d.json", argv[1], argv[p], g);
            actions += play_game(rules, (uint64_t)g, path, &text);
        }
        printf("%s: %d games, %ld actions\n", argv[p], games, actions);
        ddz_rules_free(rules);
    }
    free(text.data);
    return 0;
}
