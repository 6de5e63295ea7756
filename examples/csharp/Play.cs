// A game through ddz's C ABI from C# by P/Invoke, as a Unity client would call it (run here
// with Mono): `ddzlib` against two `greedy` robots on the profile given (classic by default),
// every action checked against the legal list, then the errors of a bad hand and an illegal
// action read back as exceptions with ddz's message.
//
//   mcs examples/csharp/Play.cs -out:Play.exe && mono Play.exe [PROFILE]
//   (libddz_ffi.so on LD_LIBRARY_PATH; ddz_ffi.dll on Windows, libddz_ffi.dylib on macOS)
using System;
using System.Runtime.InteropServices;
using System.Text;

static class Native
{
    const string Lib = "ddz_ffi";

    [DllImport(Lib)] public static extern IntPtr ddz_version();
    [DllImport(Lib)] public static extern IntPtr ddz_last_error();
    [DllImport(Lib)] public static extern IntPtr ddz_rules_new(string profile, string laizi);
    [DllImport(Lib)] public static extern void ddz_rules_free(IntPtr rules);
    [DllImport(Lib)] public static extern long ddz_legal_moves(IntPtr rules, string hand, string beat, byte[] buf, UIntPtr len);
    [DllImport(Lib)] public static extern IntPtr ddz_game_new(IntPtr rules, ulong seed);
    [DllImport(Lib)] public static extern void ddz_game_free(IntPtr game);
    [DllImport(Lib)] public static extern int ddz_game_to_act(IntPtr game);
    [DllImport(Lib)] public static extern long ddz_game_legal_actions(IntPtr game, byte[] buf, UIntPtr len);
    [DllImport(Lib)] public static extern int ddz_game_act(IntPtr game, string action);
    [DllImport(Lib)] public static extern int ddz_game_scores(IntPtr game, long[] scores);
    [DllImport(Lib)] public static extern IntPtr ddz_bot_new(string spec, IntPtr rules, ulong seed);
    [DllImport(Lib)] public static extern void ddz_bot_free(IntPtr bot);
    [DllImport(Lib)] public static extern long ddz_bot_act(IntPtr bot, IntPtr game, byte[] buf, UIntPtr len);
}

class DdzException : Exception
{
    public readonly long Status;
    public DdzException(long status)
        : base(Marshal.PtrToStringAnsi(Native.ddz_last_error()) ?? "unknown error") { Status = status; }
}

static class Play
{
    delegate long TextCall(byte[] buf, UIntPtr len);

    // A text result by the two-call pattern: the length, then the text.
    static string Text(TextCall call)
    {
        long needed = call(null, UIntPtr.Zero);
        if (needed < 0) throw new DdzException(needed);
        var buf = new byte[needed + 1];
        call(buf, (UIntPtr)buf.Length);
        return Encoding.UTF8.GetString(buf, 0, (int)needed);
    }

    static int Main(string[] args)
    {
        string profile = args.Length > 0 ? args[0] : "classic";
        Console.WriteLine("ddz " + Marshal.PtrToStringAnsi(Native.ddz_version()) + ", " + profile);
        IntPtr rules = Native.ddz_rules_new(profile, null);
        if (rules == IntPtr.Zero) throw new DdzException(-1);
        IntPtr game = Native.ddz_game_new(rules, 11);
        string[] specs = { "ddzlib", "greedy", "greedy" };
        var bots = new IntPtr[3];
        for (int s = 0; s < 3; s++) bots[s] = Native.ddz_bot_new(specs[s], rules, (ulong)s);
        try
        {
            int actions = 0;
            for (int seat; (seat = Native.ddz_game_to_act(game)) != -1;)
            {
                string action = Text((b, l) => Native.ddz_bot_act(bots[seat], game, b, l));
                string legal = Text((b, l) => Native.ddz_game_legal_actions(game, b, l));
                if (Array.IndexOf(legal.Split('\n'), action) < 0)
                    throw new Exception(action + " is not among the legal actions");
                int status = Native.ddz_game_act(game, action);
                if (status != 0) throw new DdzException(status);
                actions++;
            }
            var scores = new long[3];
            if (Native.ddz_game_scores(game, scores) != 0) throw new DdzException(-1);
            if (scores[0] + scores[1] + scores[2] != 0) throw new Exception("scores do not sum to 0");
            Console.WriteLine(actions + " actions, scores " + string.Join(" ", scores));

            try
            {
                Text((b, l) => Native.ddz_legal_moves(rules, "33Z", null, b, l));
                throw new Exception("a bad hand was accepted");
            }
            catch (DdzException e) { Console.WriteLine("error as expected (" + e.Status + "): " + e.Message); }
            int refused = Native.ddz_game_act(game, "3");
            if (refused >= 0) throw new Exception("a play after the end was accepted");
            Console.WriteLine("refused as expected (" + refused + "): " + new DdzException(refused).Message);
            return 0;
        }
        finally
        {
            foreach (var bot in bots) Native.ddz_bot_free(bot);
            Native.ddz_game_free(game);
            Native.ddz_rules_free(rules);
        }
    }
}
