// The host of the crcowan engine: a console program, compiled with the engine's own sources,
// that drives its GameSessionManager and GameLogicService and prints the engine's state.
// It belongs to the harness (peers/crcowan), not to the engine: it adds no rule. The Python
// adapter (peers/crcowan/engine.py) speaks the protocol and sends it one command a line:
//
//   new N FIRSTLEAD BREAKING PASSING TARGET ROUND SCORES HANDS KITTY   a game, dealt as given
//   deal HANDS KITTY                        the next hand (DealNewHand), dealt as given
//   pass SEAT CARDS                         PassCards for that seat
//   play SEAT CARD                          PlayCard; a complete trick is resolved at once
//   set N FIRSTLEAD BREAKING PASSING TARGET ROUND PHASE TURN LEADING HB FIRST SCORES
//       HANDS TRICK CANCELLED KITTY CAPTURED PASSES     the engine's state, field by field
//   dump                                    the state only
//
// Seats are the engine's player indexes; cards are written as in spec/notation.md (10H, QS);
// a list of cards is comma-separated ("-" when empty), a list of lists slash-separated, and a
// seat that has not passed is "*" in PASSES. Every answer is one JSON object on one line:
// {"ok": …, "message": …, "state": {…}}. An exception is answered {"error": …}.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using GameEngine.Api.Models;
using GameEngine.Api.Services;

namespace PeersHost
{
    // The one cut into the engine (applied by build.py to Deck.Shuffle): the next deck order.
    public static class DeckCut
    {
        public static List<Card> Order;
        public static List<Card> Take() { var order = Order; Order = null; return order; }
    }

    public static class Program
    {
        static readonly GameLogicService Logic = new GameLogicService();
        static GameSessionManager manager = new GameSessionManager(new GameLogicService());
        static Dictionary<string, object> lastTrick;

        static readonly string[] RankText = { "", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A" };

        static string CardText(Card c)
        {
            char s = c.Suit == Suit.Clubs ? 'C' : c.Suit == Suit.Diamonds ? 'D' : c.Suit == Suit.Hearts ? 'H' : 'S';
            return RankText[(int)c.Rank] + s;
        }

        static Card ParseCard(string t)
        {
            char s = t[t.Length - 1];
            string r = t.Substring(0, t.Length - 1);
            int rank = Array.IndexOf(RankText, r);
            if (rank < 2) throw new ArgumentException("not a card: " + t);
            Suit suit = s == 'C' ? Suit.Clubs : s == 'D' ? Suit.Diamonds : s == 'H' ? Suit.Hearts
                      : s == 'S' ? Suit.Spades : throw new ArgumentException("not a card: " + t);
            return new Card(suit, (Rank)rank);
        }

        static List<Card> Cards(string t) =>
            t == "-" ? new List<Card>() : t.Split(',').Select(ParseCard).ToList();

        static List<List<Card>> Lists(string t) => t.Split('/').Select(Cards).ToList();

        static string Id(int seat) => "P" + seat;

        static GameRules Rules(string firstLead, string breaking, string passing, string target) =>
            new GameRules { FirstLead = firstLead, BreakingHearts = breaking, PassingStyle = passing,
                            TargetScore = int.Parse(target) };

        // The deck order that makes Deck.Deal give these hands and this kitty.
        static void CutDeck(List<List<Card>> hands, List<Card> kitty)
        {
            int n = hands.Count, size = hands[0].Count;
            var order = new List<Card>();
            for (int i = 0; i < n * size; i++) order.Add(hands[i % n][i / n]);
            order.AddRange(kitty);
            DeckCut.Order = order;
        }

        static List<Player> Players(int n) =>
            Enumerable.Range(0, n).Select(i => new Player { Id = Id(i), Name = Id(i), IsAi = i > 0 }).ToList();

        static string Run(string[] w)
        {
            var st = manager.GetState();
            switch (w[0])
            {
                case "new":
                {
                    int n = int.Parse(w[1]);
                    var scores = w[7].Split(',').Select(int.Parse).ToList();
                    CutDeck(Lists(w[8]), Cards(w[9]));
                    manager = new GameSessionManager(new GameLogicService());
                    manager.InitializeGame(Players(n), Rules(w[2], w[3], w[4], w[5]));
                    st = manager.GetState();
                    st.RoundNumber = int.Parse(w[6]);
                    for (int i = 0; i < n; i++) st.Players[i].Score = scores[i];
                    lastTrick = null;
                    return Answer(true, "");
                }
                case "deal":
                    CutDeck(Lists(w[1]), Cards(w[2]));
                    manager.DealNewHand();
                    lastTrick = null;
                    return Answer(true, "");
                case "pass":
                {
                    var result = manager.PassCards(Id(int.Parse(w[1])), Cards(w[2]));
                    return Answer(result.Success, result.ErrorMessage);
                }
                case "play":
                {
                    int seat = int.Parse(w[1]);
                    var trick = st.CurrentTrick.ToList();
                    int leading = st.LeadingPlayerIndex;
                    var result = manager.PlayCard(Id(seat), ParseCard(w[2]));
                    if (result.Success && st.Phase == GameState.GamePhase.TrickPending)
                    {
                        var cards = st.CurrentTrick.ToList();
                        var outcome = Logic.EvaluateTrick(cards, leading, st.Players.Count, st.Rules);
                        manager.CompleteTrick();
                        lastTrick = new Dictionary<string, object> {
                            { "leader", leading }, { "cards", cards.Select(CardText).ToList() },
                            { "winner", outcome.IsCancelled ? (object)null : outcome.WinningPlayerIndex } };
                    }
                    return Answer(result.Success, result.ErrorMessage);
                }
                case "set":
                {
                    int n = int.Parse(w[1]);
                    manager = new GameSessionManager(new GameLogicService());
                    manager.InitializeGame(Players(n), Rules(w[2], w[3], w[4], w[5]));
                    st = manager.GetState();
                    st.RoundNumber = int.Parse(w[6]);
                    st.Phase = (GameState.GamePhase)Enum.Parse(typeof(GameState.GamePhase), w[7]);
                    st.CurrentTurnPlayerIndex = int.Parse(w[8]);
                    st.LeadingPlayerIndex = int.Parse(w[9]);
                    st.HeartsBroken = w[10] == "1";
                    st.IsFirstTrickOfHand = w[11] == "1";
                    var scores = w[12].Split(',').Select(int.Parse).ToList();
                    var hands = Lists(w[13]);
                    var captured = Lists(w[17]);
                    var passes = w[18].Split('/');
                    for (int i = 0; i < n; i++)
                    {
                        st.Players[i].Hand = hands[i];
                        st.Players[i].CapturedCards = captured[i];
                        // the engine adds a trick's points to Score when it is taken
                        st.Players[i].Score = scores[i] + Logic.CalculateTricksPoints(captured[i]);
                        if (passes[i] != "*") st.PendingPasses[Id(i)] = Cards(passes[i]);
                    }
                    st.CurrentTrick = Cards(w[14]);
                    st.CancelledKitty = Cards(w[15]);
                    st.SetupKitty = Cards(w[16]);
                    lastTrick = null;
                    return Answer(true, "");
                }
                case "dump":
                    return Answer(true, "");
                default:
                    throw new ArgumentException("unknown command " + w[0]);
            }
        }

        static string Answer(bool ok, string message)
        {
            var st = manager.GetState();
            var s = new Dictionary<string, object>();
            s["phase"] = st.Phase.ToString();
            s["turn"] = st.CurrentTurnPlayerIndex;
            s["leading"] = st.LeadingPlayerIndex;
            s["round"] = st.RoundNumber;
            s["hearts_broken"] = st.HeartsBroken;
            s["first_trick"] = st.IsFirstTrickOfHand;
            s["hands"] = st.Players.Select(p => p.Hand.Select(CardText).ToList()).ToList();
            s["passed"] = st.Players.Select(p => st.PendingPasses.ContainsKey(p.Id)
                ? (object)st.PendingPasses[p.Id].Select(CardText).ToList() : null).ToList();
            s["trick"] = st.CurrentTrick.Select(CardText).ToList();
            s["cancelled"] = st.CancelledKitty.Select(CardText).ToList();
            s["kitty"] = st.SetupKitty.Select(CardText).ToList();
            s["points"] = st.Players.Select(p => Logic.CalculateTricksPoints(p.CapturedCards)).ToList();
            s["scores"] = st.Players.Select(p => p.Score).ToList();
            s["moon"] = st.ShooterOfMoonId;
            var legal = new List<string>();
            if (st.Phase == GameState.GamePhase.Playing)
            {
                var hand = st.Players[st.CurrentTurnPlayerIndex].Hand;
                foreach (var card in hand.Distinct())
                    if (Logic.IsValidPlay(hand, st.CurrentTrick, card, st.HeartsBroken,
                                          st.IsFirstTrickOfHand, st.Rules).IsValid)
                        legal.Add(CardText(card));
            }
            s["legal"] = legal;
            s["last_trick"] = lastTrick;
            var answer = new Dictionary<string, object> { { "ok", ok }, { "message", message }, { "state", s } };
            return Json(answer);
        }

        static string Json(object v)
        {
            if (v == null) return "null";
            if (v is bool) return (bool)v ? "true" : "false";
            if (v is int) return ((int)v).ToString();
            if (v is string) return Quote((string)v);
            var dict = v as Dictionary<string, object>;
            if (dict != null)
                return "{" + string.Join(",", dict.Select(kv => Quote(kv.Key) + ":" + Json(kv.Value))) + "}";
            var list = v as System.Collections.IEnumerable;
            var items = new List<string>();
            foreach (var item in list) items.Add(Json(item));
            return "[" + string.Join(",", items) + "]";
        }

        static string Quote(string s)
        {
            var b = new StringBuilder("\"");
            foreach (char c in s)
            {
                if (c == '"' || c == '\\') b.Append('\\').Append(c);
                else if (c < ' ') b.Append("\\u").Append(((int)c).ToString("x4"));
                else b.Append(c);
            }
            return b.Append('"').ToString();
        }

        public static int Main()
        {
            Console.Out.Flush();
            string line;
            while ((line = Console.In.ReadLine()) != null)
            {
                string answer;
                try { answer = Run(line.Split(' ')); }
                catch (Exception e)
                {
                    Console.Error.WriteLine(e);
                    answer = "{\"error\":" + Quote(e.GetType().Name + ": " + e.Message) + "}";
                }
                Console.Out.WriteLine(answer);
                Console.Out.Flush();
            }
            return 0;
        }
    }
}
