/*
 * random_bot.c -- a trickcore bot in plain C99: the proof that the protocol
 * (docs/protocol.md) stands on its own.  No JSON parser and nothing beyond libc:
 * it reads the request id and the number of legal options from
 *
 *     request <id> <count> <json>
 *
 * and answers "action <id> #<k>" with 0 <= k < count.  k is a hash of the request's
 * JSON and the bot's "seed" option, so the bot is reproducible like the bundled
 * Python bots: the same request always gets the same answer.
 *
 * Build:  cc -std=c99 -Wall -Wextra -pedantic -Werror -O2 -o random_bot random_bot.c
 * Use:    command = ["path/to/random_bot"] in a tournament config, or
 *         trickcore compliance -- path/to/random_bot
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *line = NULL;
static size_t capacity = 0;

/* One line of stdin without its "\n" (and a "\r" before it), in `line`.  Returns the
 * length, or -1 at the end of the input.  Lines may be long: the view is in them. */
static long read_line(void)
{
    size_t length = 0;
    int c;
    while ((c = getchar()) != EOF && c != '\n') {
        if (length + 1 >= capacity) {
            capacity = capacity ? 2 * capacity : 4096;
            line = realloc(line, capacity);
            if (line == NULL) {
                fputs("random_bot: out of memory\n", stderr);
                exit(1);
            }
        }
        line[length++] = (char)c;
    }
    if (c == EOF && length == 0)
        return -1;
    if (length > 0 && line[length - 1] == '\r')
        length--;
    if (line == NULL) { /* an empty first line */
        capacity = 4096;
        line = malloc(capacity);
        if (line == NULL)
            exit(1);
    }
    line[length] = '\0';
    return (long)length;
}

/* Does `text` start with the command word `word` (followed by a space or the end)? */
static int is_command(const char *text, const char *word)
{
    size_t n = strlen(word);
    return strncmp(text, word, n) == 0 && (text[n] == ' ' || text[n] == '\0');
}

static void send_line(const char *text)
{
    fputs(text, stdout);
    fputc('\n', stdout);
    fflush(stdout); /* a line left in the buffer never arrives: the runner would time out */
}

/* FNV-1a, then a splitmix64 finaliser: a well-mixed 64-bit hash of the text and the seed. */
static uint64_t hash(const char *text, uint64_t seed)
{
    uint64_t h = 14695981039346656037ULL ^ seed;
    for (; *text; text++) {
        h ^= (unsigned char)*text;
        h *= 1099511628211ULL;
    }
    h += 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

int main(void)
{
    uint64_t seed = 0;
    char answer[128];

    while (read_line() >= 0) {
        if (is_command(line, "trickcore")) {
            /* Handshake: introduce the bot, declare its option, end with our version. */
            send_line("id name c-random");
            send_line("id author trickcore");
            send_line("option seed int 0 0 4294967295");
            send_line("trickcoreok 1");
        } else if (is_command(line, "setoption")) {
            if (strncmp(line, "setoption seed ", 15) == 0)
                seed = strtoull(line + 15, NULL, 10);
        } else if (is_command(line, "isready")) {
            /* Readiness barrier: echo the token. */
            snprintf(answer, sizeof answer, "readyok %.100s", line + 8);
            send_line(answer);
        } else if (is_command(line, "request")) {
            /* request <id> <count> <json> */
            char *id = line + 8;
            char *end;
            char *space = strchr(id, ' ');
            long count;
            if (space == NULL)
                continue;
            *space = '\0';
            count = strtol(space + 1, &end, 10);
            if (count <= 0)
                continue;
            snprintf(answer, sizeof answer, "action %.40s #%lu", id,
                     (unsigned long)(hash(end, seed) % (uint64_t)count));
            send_line(answer);
        } else if (is_command(line, "quit")) {
            break;
        }
        /* newgame, event, gameover and commands of later versions need no answer */
    }
    free(line);
    return 0;
}
