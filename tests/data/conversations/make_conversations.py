"""Write the multi-session conversation evaluation set (issue 26): conversations.jsonl + questions.jsonl.

Hand-written facts (one per evidence turn) are placed in dated sessions between small-talk turns;
each question paraphrases its evidence and names the kind it tests. Deterministic (seeded).
Run: python tests/data/conversations/make_conversations.py
"""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

HERE = Path(__file__).parent

SMALL_TALK = [
    "hey! how's your week been?",
    "busy as always, but good. you?",
    "can't complain really",
    "sorry I took ages to reply, the day got away from me",
    "no worries at all",
    "haha yeah that sounds about right",
    "the weather has been so grey lately",
    "I know, I keep forgetting what the sun looks like",
    "did you end up watching that series I mentioned?",
    "only the first two episodes, it's slow but I like it",
    "I made soup again, third time this week",
    "honestly soup season is the best season",
    "anyway, enough about me",
    "ok I have to run, talk soon?",
    "yes! speak soon, take care",
    "good night!",
    "same old, same old",
    "I slept terribly last night",
    "ugh, hope tonight is better",
    "let me know how it goes",
    "will do",
    "that's lovely to hear",
    "oh no, that's annoying",
    "ha, classic",
    "we should catch up properly soon",
    "definitely, it's been too long",
    "my phone died halfway through the day, total chaos",
    "I spent the whole evening tidying and it still looks messy",
    "traffic was awful this morning",
    "fingers crossed for you",
]
REPLIES = [
    "oh nice, how do you feel about it?",
    "wow, that's a big deal!",
    "really? tell me more",
    "that makes sense",
    "good for you, honestly",
    "hmm, I didn't see that coming",
    "that sounds hard, sorry",
    "haha I love that",
    "oh interesting",
    "you'll have to send pictures",
]

# Each conversation: speakers, first session date, facts and multi-hop questions.
# fact = (session, speaker index, evidence text, [(kind, question), ...])
# multi = (fact index, fact index, question)
CONVERSATIONS: list[dict] = [
    {
        "id": "farm",
        "speakers": ["Tomas", "Hanna"],
        "start": "2023-02-06",
        "facts": [
            (
                0,
                0,
                "we lost two ewes in the storm on Saturday, the shed roof caved in on the back pen",
                [
                    ("single-hop", "What happened to Tomas's sheep during the storm?"),
                    ("temporal", "When did Tomas's animals die because of the storm?"),
                ],
            ),
            (
                0,
                1,
                "I swapped to night shifts on the cardiac ward, starting next month",
                [("single-hop", "Which ward does Hanna work on?")],
            ),
            (
                1,
                0,
                "the bank finally said yes to the loan for the new milking parlour",
                [
                    ("single-hop", "What is Tomas borrowing money to build?"),
                    ("temporal", "When was the financing for the farm's new building approved?"),
                ],
            ),
            (
                2,
                1,
                "I've signed up for the half marathon in Ghent in September, no idea what I was thinking",
                [("single-hop", "Which race did Hanna enter?")],
            ),
            (
                2,
                0,
                "planted the first rows of potatoes today, Charlotte and a few Kestrel for the farm shop",
                [
                    ("single-hop", "What varieties did Tomas plant for his shop?"),
                    ("temporal", "When did the potato planting start on the farm?"),
                ],
            ),
            (
                3,
                0,
                "my daughter Ella wants to take over the cheese side when she finishes agricultural college",
                [
                    ("single-hop", "What does Tomas's child want to do after her studies?"),
                    ("open-domain", "Is farming likely to stay in Tomas's family?"),
                ],
            ),
            (
                4,
                1,
                "I pulled my calf on a long run, physio says no running for three weeks",
                [
                    ("single-hop", "What injury did Hanna get while training?"),
                    ("temporal", "When did Hanna hurt her leg?"),
                ],
            ),
            (
                5,
                0,
                "the parlour is up and running, twelve cows at a time instead of four",
                [
                    ("single-hop", "How many cows can be milked together now?"),
                    ("temporal", "When did the new milking setup start working?"),
                ],
            ),
            (
                6,
                1,
                "I'm moving in with Joris in October, his flat is closer to the hospital anyway",
                [
                    ("single-hop", "Who is Hanna going to live with?"),
                    ("open-domain", "Will Hanna's commute to work get shorter after her move?"),
                ],
            ),
            (
                7,
                0,
                "the farm shop got a write-up in the regional paper, queues out the door on Sunday",
                [("single-hop", "Where was Tomas's shop featured?")],
            ),
            (
                8,
                1,
                "finished Ghent in 2:04! slow, but after the injury I'm just happy I crossed the line",
                [("single-hop", "What was Hanna's finishing time?"), ("temporal", "When did Hanna run her race?")],
            ),
            (
                9,
                0,
                "honestly I'd never sell the land, my grandfather cleared half those fields by hand",
                [("open-domain", "Would Tomas accept an offer to buy his farm?")],
            ),
            (
                9,
                1,
                "we're thinking about getting a dog once we're settled, maybe a rescue",
                [("single-hop", "What pet is Hanna considering?")],
            ),
            (
                10,
                0,
                "Ella's cheese won a bronze at the county show, she cried on the phone",
                [
                    ("single-hop", "What prize did Tomas's daughter win?"),
                    ("temporal", "When did Ella get an award for her cheese?"),
                ],
            ),
            (
                3,
                1,
                "I can't stand hospital coffee, I bring a flask of my own now",
                [("open-domain", "Would Hanna be happy with the coffee machine at work?")],
            ),
        ],
        "multi": [
            (3, 6, "What did Hanna train for before she hurt her calf?"),
            (3, 10, "How did Hanna do in the race she signed up for in spring?"),
            (5, 13, "What did the child who wants to run the cheese side achieve later?"),
            (1, 8, "Where will Hanna work once she lives with her partner?"),
            (0, 2, "After losing sheep in the storm, what did the bank approve for Tomas?"),
        ],
    },
    {
        "id": "choir",
        "speakers": ["Leila", "Ben"],
        "start": "2022-09-12",
        "facts": [
            (
                0,
                0,
                "auditioned for the cathedral choir yesterday, they put me in the altos",
                [
                    ("single-hop", "Which voice part did Leila get?"),
                    ("temporal", "When did Leila try out for the choir?"),
                ],
            ),
            (
                0,
                1,
                "bought an old wooden sloop off a retired vicar, she needs a lot of love",
                [("single-hop", "What kind of boat does Ben own?")],
            ),
            (
                1,
                0,
                "we're doing Fauré's Requiem for the November concert, the Pie Jesu gives me goosebumps",
                [("single-hop", "What piece is the choir preparing for its autumn concert?")],
            ),
            (
                1,
                1,
                "spent the whole weekend scraping varnish off the hull, my hands are wrecked",
                [("single-hop", "What did Ben do to the boat over the weekend?")],
            ),
            (
                2,
                0,
                "I got a cold right before the dress rehearsal, croaking like a frog",
                [
                    ("single-hop", "What went wrong with Leila's voice before the rehearsal?"),
                    ("temporal", "When was Leila ill before the performance?"),
                ],
            ),
            (
                3,
                0,
                "the concert went so well, the director asked me to sing a short solo at Christmas",
                [
                    ("single-hop", "What was Leila offered after the concert?"),
                    ("temporal", "When did the choir director ask Leila for a solo?"),
                ],
            ),
            (
                3,
                1,
                "my sister is getting married in Lisbon next June and I'm the best man, weirdly",
                [("single-hop", "What role does Ben have at his sister's wedding?")],
            ),
            (
                4,
                1,
                "the boat is out of the water for winter, sitting on stands in Nico's yard",
                [("single-hop", "Where is Ben's boat stored in the cold months?")],
            ),
            (
                5,
                0,
                "started lessons with a voice teacher, she's fixing my breathing",
                [
                    ("single-hop", "What is Leila working on with her new teacher?"),
                    ("temporal", "When did Leila begin private singing lessons?"),
                ],
            ),
            (
                6,
                1,
                "relaunched her at last! the engine coughed but she floats",
                [("temporal", "When did Ben put his boat back in the water?")],
            ),
            (
                7,
                0,
                "I'm quitting the bakery, the 4am starts are killing my voice",
                [
                    ("single-hop", "Why is Leila leaving her job?"),
                    ("open-domain", "Did Leila's job involve early mornings?"),
                ],
            ),
            (
                8,
                1,
                "Lisbon was perfect, I only cried a little during my speech",
                [
                    ("single-hop", "How did Ben's speech go at the wedding?"),
                    ("temporal", "When did the wedding in Portugal happen?"),
                ],
            ),
            (
                9,
                0,
                "got a place at the conservatory's part-time programme from the autumn",
                [
                    ("single-hop", "What programme was Leila admitted to?"),
                    ("open-domain", "Is Leila taking her singing more seriously over time?"),
                ],
            ),
            (
                9,
                1,
                "I'm sailing her to the islands in August, just me and the dog",
                [("single-hop", "Who is Ben taking on his summer trip?")],
            ),
            (
                2,
                1,
                "I get horribly seasick on ferries, which is funny for a guy with a boat",
                [("open-domain", "Would Ben enjoy a long ferry crossing?")],
            ),
        ],
        "multi": [
            (2, 4, "What piece was Leila performing when she was sick before the dress rehearsal?"),
            (6, 11, "How did Ben's best man speech go?"),
            (1, 13, "What kind of boat is Ben taking to the islands?"),
            (5, 12, "After her Christmas solo, what did Leila get into?"),
            (8, 10, "Who was helping Leila with her voice when she quit baking?"),
        ],
    },
    {
        "id": "clinic",
        "speakers": ["Priya", "Owen"],
        "start": "2023-07-03",
        "facts": [
            (
                0,
                0,
                "first week as a GP registrar, I saw 23 patients on Thursday and nearly fell asleep on the bus",
                [
                    ("single-hop", "What training post did Priya start?"),
                    ("temporal", "When did Priya start her new medical job?"),
                ],
            ),
            (
                0,
                1,
                "I accepted the deputy head post at the school in Leeds, we move in August",
                [("single-hop", "What job did Owen accept?")],
            ),
            (
                1,
                1,
                "the removal van cost twice what they quoted, I'm still furious",
                [("single-hop", "What was the problem with Owen's move?")],
            ),
            (
                1,
                0,
                "my mum was diagnosed with type 2 diabetes, so I'm helping her with meals",
                [
                    ("single-hop", "What health condition does Priya's mother have?"),
                    ("temporal", "When did Priya learn about her mum's diagnosis?"),
                ],
            ),
            (
                2,
                0,
                "I'm sitting the AKT exam in January, revision every evening",
                [("single-hop", "Which exam is Priya preparing for?")],
            ),
            (
                3,
                1,
                "we adopted two cats from the shelter, Miso and Tofu",
                [("single-hop", "What are the names of Owen's cats?"), ("temporal", "When did Owen get his pets?")],
            ),
            (
                4,
                0,
                "mum has lost six kilos since she started walking after dinner, her doctor is thrilled",
                [("single-hop", "How much weight has Priya's mother lost?")],
            ),
            (
                5,
                1,
                "Ofsted came in last week, we got a good, the staff room threw a party",
                [
                    ("single-hop", "What rating did Owen's school get from the inspection?"),
                    ("temporal", "When was Owen's school inspected?"),
                ],
            ),
            (
                6,
                0,
                "passed the AKT!! 87 percent",
                [
                    ("single-hop", "What score did Priya get?"),
                    ("temporal", "When did Priya find out she passed her exam?"),
                ],
            ),
            (
                7,
                1,
                "I've started learning Urdu on an app so I can talk to the parents at school",
                [
                    ("single-hop", "What language is Owen learning?"),
                    ("open-domain", "Does Owen care about connecting with his pupils' families?"),
                ],
            ),
            (
                8,
                0,
                "thinking of doing a diploma in palliative care after training, the hospice placement changed me",
                [("single-hop", "What area of medicine does Priya want to specialise in?")],
            ),
            (
                9,
                1,
                "my partner Sam proposed on the beach at Whitby",
                [("single-hop", "Where did Owen get engaged?"), ("temporal", "When did Sam propose to Owen?")],
            ),
            (
                10,
                0,
                "booked three weeks in Kerala in March, first proper holiday in two years",
                [
                    ("single-hop", "Where is Priya going on holiday?"),
                    ("open-domain", "Has Priya been overworked lately?"),
                ],
            ),
            (
                2,
                1,
                "I hate driving in cities, I'd take a bike any day",
                [("open-domain", "Would Owen prefer to cycle to the school?")],
            ),
            (
                5,
                0,
                "I'm vegetarian but I've been cooking fish for mum twice a week",
                [("open-domain", "Does Priya eat the fish dinners she makes?")],
            ),
        ],
        "multi": [
            (4, 8, "How did Priya do on the exam she revised for every evening?"),
            (3, 6, "How is Priya's mother's diabetes going months after the diagnosis?"),
            (1, 7, "How did the school Owen joined in Leeds do in its inspection?"),
            (5, 11, "Who proposed to the owner of Miso and Tofu?"),
            (0, 10, "What does Priya want to do after her GP training?"),
        ],
    },
    {
        "id": "harbour",
        "speakers": ["Rui", "Dana"],
        "start": "2021-04-19",
        "facts": [
            (
                0,
                0,
                "joined the crew of the Albatroz for the summer regattas, I'm on the foredeck",
                [("single-hop", "What position does Rui sail in?"), ("temporal", "When did Rui join the racing crew?")],
            ),
            (
                0,
                1,
                "I started volunteering at the food bank on Tuesdays",
                [("single-hop", "Where does Dana volunteer?")],
            ),
            (
                1,
                0,
                "we came third in the Cascais race, the spinnaker tore on the last leg",
                [
                    ("single-hop", "What broke during the race in Cascais?"),
                    ("temporal", "When did the Albatroz finish third?"),
                ],
            ),
            (
                2,
                1,
                "my landlord is selling the building, I have until September to find somewhere",
                [("single-hop", "Why does Dana need to move?")],
            ),
            (
                2,
                0,
                "I'm allergic to shellfish, found that out the hard way at the crew dinner",
                [
                    ("single-hop", "What food allergy does Rui have?"),
                    ("open-domain", "Should Rui order the seafood platter?"),
                ],
            ),
            (
                3,
                1,
                "found a tiny flat in Alfama with a balcony, moving on the 20th",
                [
                    ("single-hop", "Which neighbourhood is Dana's new flat in?"),
                    ("temporal", "When did Dana find a new place to live?"),
                ],
            ),
            (
                4,
                0,
                "the skipper offered me a spot on the delivery trip to the Azores in October",
                [("single-hop", "Where is the boat being delivered?")],
            ),
            (
                5,
                1,
                "the food bank asked me to coordinate the weekend drivers now",
                [("single-hop", "What new responsibility did Dana take on?")],
            ),
            (
                6,
                0,
                "eleven days to Ponta Delgada, we hit a gale on day four and I didn't sleep for 30 hours",
                [
                    ("single-hop", "How long did the crossing take?"),
                    ("temporal", "When did Rui make the ocean passage?"),
                ],
            ),
            (
                7,
                1,
                "I got my certificate in Portuguese sign language",
                [
                    ("single-hop", "What qualification did Dana earn?"),
                    ("temporal", "When did Dana finish her sign language course?"),
                ],
            ),
            (
                8,
                0,
                "I'm going to do my Yachtmaster theory over the winter",
                [
                    ("single-hop", "What course is Rui planning for the winter?"),
                    ("open-domain", "Does Rui want to become a professional skipper?"),
                ],
            ),
            (
                9,
                1,
                "my brother had a baby girl, Inês, I'm an aunt!",
                [("single-hop", "What is the name of Dana's niece?"), ("temporal", "When was Dana's niece born?")],
            ),
            (
                10,
                0,
                "I passed the theory, now I need more sea miles for the practical",
                [("temporal", "When did Rui pass his Yachtmaster theory?")],
            ),
            (
                4,
                1,
                "crowds make me anxious, I skipped the festival again",
                [("open-domain", "Would Dana enjoy the packed Santo António street party?")],
            ),
            (
                6,
                1,
                "I climbed Pico last year and want to go back",
                [("open-domain", "Has Dana been to the Azores before?")],
            ),
        ],
        "multi": [
            (6, 8, "How long did the trip the skipper offered Rui take?"),
            (3, 5, "Where did Dana move after the landlord sold her building?"),
            (1, 7, "What did Dana get promoted to at the place she volunteers on Tuesdays?"),
            (10, 12, "What did Rui need after passing the course he planned for winter?"),
            (0, 2, "What tore during the race Rui sailed with the Albatroz?"),
        ],
    },
    {
        "id": "startup",
        "speakers": ["Kenji", "Mara"],
        "start": "2024-01-08",
        "facts": [
            (
                0,
                0,
                "handed in my notice at the bank, going full time on the scheduling app",
                [("single-hop", "What did Kenji leave his job to work on?"), ("temporal", "When did Kenji resign?")],
            ),
            (
                0,
                1,
                "started a pottery class on Wednesday nights, my first bowl looks like a hat",
                [("single-hop", "What hobby did Mara take up?")],
            ),
            (
                1,
                0,
                "we got into the accelerator in Berlin, three months starting in April",
                [
                    ("single-hop", "Which city is the accelerator in?"),
                    ("temporal", "When was Kenji accepted into the programme?"),
                ],
            ),
            (
                2,
                1,
                "my knee surgery is booked for the 14th, the ligament never healed",
                [("single-hop", "What surgery does Mara need?")],
            ),
            (
                3,
                0,
                "first paying customer! a dental clinic chain with nine sites",
                [
                    ("single-hop", "Who was Kenji's first customer?"),
                    ("temporal", "When did Kenji land his first paid client?"),
                ],
            ),
            (
                4,
                1,
                "out of the brace, doing physio twice a week, walking the dog short distances",
                [("single-hop", "How is Mara's recovery going?")],
            ),
            (
                5,
                0,
                "my cofounder Aiko is leaving, she wants to go back to research",
                [
                    ("single-hop", "Why did Kenji's cofounder quit?"),
                    ("temporal", "When did Aiko announce she was leaving?"),
                ],
            ),
            (
                6,
                1,
                "sold three vases at the market stall, someone asked for a custom set",
                [("single-hop", "How many pieces did Mara sell?")],
            ),
            (
                7,
                0,
                "we closed a seed round, 1.2 million, mostly from a health-tech fund",
                [("single-hop", "How much money did Kenji raise?"), ("temporal", "When did the seed round close?")],
            ),
            (
                8,
                1,
                "I'm going to rent a small studio with a kiln, sharing it with two others",
                [
                    ("single-hop", "What is Mara going to rent?"),
                    ("open-domain", "Is Mara's pottery turning into more than a hobby?"),
                ],
            ),
            (
                9,
                0,
                "hired two engineers and moved into a proper office by the canal",
                [("single-hop", "Where is Kenji's new office?")],
            ),
            (
                10,
                1,
                "ran my first 5k since the operation, slow but no pain",
                [
                    ("temporal", "When did Mara run again after her surgery?"),
                    ("single-hop", "What distance did Mara run?"),
                ],
            ),
            (
                1,
                1,
                "I'm a terrible flyer, I'd take the train to Berlin even if it's eight hours",
                [("open-domain", "How would Mara likely travel to visit Kenji in Germany?")],
            ),
            (
                3,
                0,
                "I only drink tea now, coffee gives me the shakes during pitches",
                [("open-domain", "Should Mara bring Kenji an espresso before his demo?")],
            ),
        ],
        "multi": [
            (3, 5, "How was Mara doing a few weeks after her knee operation?"),
            (6, 8, "What did Kenji raise after his cofounder left?"),
            (1, 9, "What is Mara renting for the craft she started on Wednesday nights?"),
            (2, 4, "Who paid for Kenji's app after he joined the Berlin programme?"),
            (3, 11, "How far did Mara run once her ligament had been operated on?"),
            (0, 10, "Who did Kenji hire for the app he quit the bank for?"),
        ],
    },
]

# Extra questions on existing facts: (fact index, kind, question); relative-time ones need session dates.
EXTRA: dict[str, list[tuple[int, str, str]]] = {
    "farm": [
        (4, "temporal", "What did Tomas put in the ground a couple of months before Hanna's running injury?"),
        (9, "temporal", "Which newspaper coverage did the shop get in the autumn before the county show?"),
        (11, "open-domain", "Does Tomas feel attached to his family's land?"),
    ],
    "choir": [
        (3, "temporal", "What was Ben working on the weekend a few weeks after he bought the boat?"),
        (7, "single-hop", "Whose yard is the sloop kept in over the winter?"),
        (14, "open-domain", "Is Ben prone to motion sickness?"),
    ],
    "clinic": [
        (2, "temporal", "What annoyed Owen about moving house in the summer of 2023?"),
        (12, "temporal", "Where was Priya going in the March after she passed her exam?"),
        (13, "single-hop", "How does Owen feel about driving in town?"),
    ],
    "harbour": [
        (4, "temporal", "What did Rui discover at the crew dinner in spring 2021?"),
        (9, "single-hop", "Which sign language is Dana certified in?"),
        (14, "single-hop", "Which mountain did Dana climb?"),
    ],
    "startup": [
        (7, "single-hop", "What did a customer ask Mara to make for them?"),
        (12, "single-hop", "Does Mara like flying?"),
        (9, "temporal", "What did Kenji do about staff in the autumn of 2024?"),
        (13, "single-hop", "Why did Kenji stop drinking coffee?"),
    ],
}


def _dates(start: str, n: int, rng: random.Random) -> list[dt.datetime]:
    day = dt.datetime.fromisoformat(start).replace(hour=19)
    out = []
    for _ in range(n):
        out.append(day.replace(hour=rng.choice([8, 12, 18, 20, 21]), minute=rng.randrange(60)))
        day += dt.timedelta(days=rng.randint(12, 30))
    return out


def build(conv: dict, rng: random.Random) -> tuple[list[dict], list[dict]]:
    """Session rows and question rows of one conversation."""
    cid, speakers = conv["id"], conv["speakers"]
    n_sessions = max(f[0] for f in conv["facts"]) + 1
    dates = _dates(conv["start"], n_sessions, rng)
    fact_turn: dict[int, str] = {}
    rows = []
    for s in range(n_sessions):
        facts = [(i, f) for i, f in enumerate(conv["facts"]) if f[0] == s]
        blocks: list[list[tuple[int, str, int | None]]] = [
            [(j % 2, line, None)]
            for j, line in enumerate(rng.sample(SMALL_TALK, rng.randint(max(4, 8 - 2 * len(facts)), 11)))
        ]
        for i, (_, who, text, _) in facts:
            pos = rng.randint(1, len(blocks))
            blocks.insert(pos, [(who, text, i), (1 - who, rng.choice(REPLIES), None)])
        sid = f"{cid}-s{s + 1:02d}"
        turns = []
        for k, (who, text, fact) in enumerate(t for b in blocks for t in b):
            tid = f"{sid}-t{k + 1:02d}"
            if fact is not None:
                fact_turn[fact] = tid
            turns.append(
                {
                    "id": tid,
                    "speaker": speakers[who],
                    "text": text,
                    "timestamp": (dates[s] + dt.timedelta(minutes=k)).isoformat(),
                }
            )
        rows.append(
            {
                "type": "conversation",
                "session_id": sid,
                "started_at": dates[s].isoformat(),
                "participants": speakers,
                "turns": turns,
            }
        )
    questions = []
    for i, (_, _, _, qs) in enumerate(conv["facts"]):
        for kind, q in qs:
            questions.append({"conversation": cid, "kind": kind, "question": q, "evidence": [fact_turn[i]]})
    for i, kind, q in EXTRA.get(cid, []):
        questions.append({"conversation": cid, "kind": kind, "question": q, "evidence": [fact_turn[i]]})
    for a, b, q in conv["multi"]:
        questions.append(
            {"conversation": cid, "kind": "multi-hop", "question": q, "evidence": [fact_turn[a], fact_turn[b]]}
        )
    return rows, questions


def main() -> None:
    rng = random.Random(26)
    with (HERE / "conversations.jsonl").open("w") as conv_out, (HERE / "questions.jsonl").open("w") as q_out:
        for conv in CONVERSATIONS:
            rows, questions = build(conv, rng)
            for row in rows:
                conv_out.write(json.dumps(row, ensure_ascii=False) + "\n")
            for q in questions:
                q_out.write(json.dumps(q, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
