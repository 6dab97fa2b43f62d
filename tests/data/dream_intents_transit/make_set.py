#!/usr/bin/env python3
"""Build and check the hand-written transit intent evaluation set.

All utterances below were written by hand, one at a time, for a fictional
regional public-transport operator (buses, trams, regional trains, ferries).
Stops, lines, dates, references and card numbers are invented.

Running this script writes intents.json next to it and checks that:
  * every intent has exactly 10 utterances,
  * every utterance is unique (case- and whitespace-insensitive),
  * every intent belongs to exactly one domain,
  * every utterance is between 3 and 30 words long.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "intents.json")
PER_INTENT = 10

# (domain, intent, [utterances]) in output order.
DATA = [
    # ------------------------------------------------------------------
    # Domain: tickets_and_fares
    # ------------------------------------------------------------------
    (
        "tickets_and_fares",
        "buy_ticket",
        [
            "how do i buy a day pass for the trams",
            "I'd like to purchase two adult returns from Central Station to Brackenfield for Saturday please.",
            "ticket for ferry to Linholm tommorow 8:15, can I get it on the app?",
            "where can i get a weekly bus ticket, the machine at Mill Street only takes coins",
            "Need a single to Oldcastle. Now.",
            "Hello, I am visitor in the city, what I must do for get ticket for the bus? Driver take cash?",
            "can i buy a monthly season ticket online or do i have to go to the travel centre",
            "gimme 1 adult 2 kids return RE7 to the coast",
            "Is it possible to book a group ticket for 15 students travelling on the 3rd of June?",
            "app keeps asking me to pick a zone before it'll sell me anything, I just want zones 1-3",
        ],
    ),
    (
        "tickets_and_fares",
        "ticket_refund",
        [
            "I bought a return to Brackenfield but the trip got cancelled, can I get my money back?",
            "refund pls, didnt use my ticket",
            "How do I request a refund on an unused annual pass? I'm moving abroad in March.",
            "my plans changed and I won't travel on the 14th, is the £23 fare refundable",
            "Can the remaining weeks on my monthly ticket be paid back to me if I stop commuting?",
            "I want reimbursement for ferry tickets I never used, booking ref LX4471",
            "hi, how long do refunds take to come through? i applied last week for the unused tram pass",
            "Bought the wrong ticket by accident and didn't travel, can I return it for cash",
            "Is there an admin fee if I hand back my season ticket early?",
            "Please give me back money for ticket, I was sick and not travel.",
        ],
    ),
    (
        "tickets_and_fares",
        "ticket_exchange",
        [
            "Can I change the date on my train ticket from Friday to Sunday?",
            "I booked the 07:40 to Oldcastle but need a later train, can I swap it",
            "bought an adult ticket for my son by mistake, can it be switched to a child one",
            "is it possible to upgrade my bus weekly to the all-modes weekly and just pay the difference",
            "need to move my ferry booking to next weekend, ref FR-20931",
            "How can I amend the travel date on an advance ticket without losing what I paid?",
            "wrong zones on my monthly, swap to zone 1-4 pls",
            "Hello, I want to change my ticket for other day, it is possible?",
            "The return leg of my ticket says Tuesday but I'm coming back Thursday now. Can you reissue it?",
            "Rebook me on a different departure, same route, 12 March instead of 11 March.",
        ],
    ),
    (
        "tickets_and_fares",
        "fare_price_enquiry",
        [
            "how much is a single on the 14 bus",
            "What does a return from Central Station to Westmoor Park & Ride cost at peak time?",
            "price of a family day ticket?",
            "Is it cheaper to buy a weekly or just pay as I go if I travel 4 days a week?",
            "How much for the ferry to Linholm with a car?",
            "tram fare city centre to the university, off-peak",
            "why is it £6.40 to go three stops?? what's the actual fare table",
            "Could you tell me what the fare would be for two adults going to the airport on the RE7?",
            "Do fares go up in January? I want to know what my annual will cost next year",
            "what's the daily cap if i just tap my bank card",
        ],
    ),
    (
        "tickets_and_fares",
        "concession_eligibility",
        [
            "Am I eligible for a senior discount? I turn 65 next month.",
            "do students get cheaper tickets",
            "I'm on jobseekers allowance, is there any reduced fare for me",
            "Can kids under 5 travel free on the tram?",
            "How do I apply for the disabled persons' travel pass, and what proof do you need?",
            "Is there a discount for apprentices or only uni students?",
            "my daughter is 16, does she still pay child fare or adult",
            "Veterans discount? served 12 years",
            "hi does the young person railcard work on your regional trains or is that only national",
            "I care for my husband who uses a wheelchair. Do I have to pay when I travel with him?",
        ],
    ),
    # ------------------------------------------------------------------
    # Domain: journeys_and_disruptions
    # ------------------------------------------------------------------
    (
        "journeys_and_disruptions",
        "journey_planning",
        [
            "How do I get from Harbour Quay to the General Hospital by bus?",
            "fastest way to Oldcastle Interchange from Mill Street",
            "I need to be in Brackenfield by 9 am on Monday, which train should I take from Central?",
            "route to the stadium avoiding changes please, I have a buggy",
            "what bus goes to Westmoor park and ride",
            "Can I get to Linholm Island and back in one day using the ferry and the connecting bus?",
            "Please, I am at the airport, how I go to the old town hotel Rosenhof?",
            "which tram do i take for the university campus",
            "Best connection from St Ann's Square to Kirkby village on a Sunday evening?",
            "is there a night bus that gets me home to Elmfield after midnight",
        ],
    ),
    (
        "journeys_and_disruptions",
        "next_departure",
        [
            "when's the next 14 from Mill Street",
            "Next tram to Harbour Quay?",
            "How long until the RE7 leaves Central Station, platform 4?",
            "is the 22:10 ferry still on time",
            "real time departures for stop 3381 please",
            "What time is the last bus from Oldcastle tonight?",
            "Standing at St Ann's Square, screen is blank. When's the next T2 coming?",
            "when does the first train to brackenfield leave tomorrow morning",
            "bus 5 how many minutes",
            "Can you tell me when the next departure toward the airport is from the interchange?",
        ],
    ),
    (
        "journeys_and_disruptions",
        "disruption_status",
        [
            "are the trams running today? heard something about a strike",
            "Why is line 14 diverted away from Mill Street this week?",
            "Any disruption on the RE7 this morning? Nothing's turned up for 40 mins",
            "Is the ferry cancelled because of the storm warning?",
            "road closure at Harbour Quay, where's the temporary stop",
            "Are there engineering works on the Brackenfield line this weekend?",
            "whats going on with the T2, everything stuck at the depot??",
            "Hello, today the bus not come to my stop since morning, is there problem?",
            "Will the replacement buses be running during the track closure from 4 to 11 August?",
            "service updates for the northern tram lines",
        ],
    ),
    (
        "journeys_and_disruptions",
        "delay_compensation",
        [
            "My train was 45 minutes late, how do I claim delay repay?",
            "Can I get compensation, the RE7 got cancelled and I missed my flight",
            "claim for delay yesterday 17:32 from Central, arrived over an hour late",
            "is there money back when the ferry is delayed more than 30 min",
            "My season ticket journeys were late every day this week. Am I entitled to anything?",
            "I had to take a taxi because the last bus never showed up. Will you reimburse the £38 fare?",
            "how to fill the form for late train compensation, I don't have paper ticket only on phone",
            "submitted a delay claim 3 weeks ago, heard nothing, ref DC-55812",
            "do trams count for delay compensation or only trains",
            "Train stuck outside Oldcastle for 50 mins on 2 May. What am I owed?",
        ],
    ),
    # ------------------------------------------------------------------
    # Domain: accessibility_and_onboard
    # ------------------------------------------------------------------
    (
        "accessibility_and_onboard",
        "book_travel_assistance",
        [
            "I use a wheelchair and need a ramp at Brackenfield station on Thursday morning, can you arrange it?",
            "book assistance for my mum, she's blind, travelling Central to Oldcastle 10:15 tomorrow",
            "Can someone meet me off the ferry and help me with my bags? I have limited mobility.",
            "how much notice do you need to book passenger assist",
            "Hi, I am deaf and need help at the station for changing platforms on Saturday. How I can request?",
            "need staff to help me board RE7 at 8:02, electric wheelchair",
            "Is there anyone who can guide my elderly father from the tram to the train at the interchange?",
            "request assistance pls. Harbour Quay > Linholm, 14 June, walking frame",
            "My booked assistance didn't show last time. I want to make sure someone is definitely there on Monday 09:40 at Mill Street station.",
            "can i book help for boarding over the phone or only through the app",
        ],
    ),
    (
        "accessibility_and_onboard",
        "station_accessibility_info",
        [
            "Is Oldcastle Interchange step free from street to platform?",
            "do all the trams have low floors",
            "Which stations on the Brackenfield line have level access for a wheelchair?",
            "Are the buses on route 22 wheelchair accessible, with a ramp?",
            "Is there a lift at St Ann's Square tram stop or only stairs",
            "how big is the gap between train and platform at Harbour Quay? I use crutches",
            "does the ferry have a ramp for wheelchairs or is it steps to board",
            "Looking for an accessible route to the hospital, no stairs please",
            "Are there tactile paving and audio announcements at the new Westmoor stop?",
            "Hi, my wife is in wheelchair. Station Mill Street, can she go platform without steps?",
        ],
    ),
    (
        "accessibility_and_onboard",
        "report_accessibility_fault",
        [
            "The lift at Central Station platform 3 is out of order again",
            "escalator at Oldcastle Interchange stopped, not moving, been like that since morning",
            "Ramp on bus 14 wouldn't deploy and the driver couldn't get my chair on",
            "Hearing loop at the ticket office in Brackenfield doesn't work",
            "Is the lift at St Ann's Square fixed yet? It was broken last Tuesday",
            "announcements on tram T2 are silent, I'm visually impaired and missed my stop",
            "broken lift harbour quay, I'm stuck on the platform with a pram",
            "Please report: the accessible toilet at Westmoor Park & Ride has been locked for a week.",
            "next stop display screen on the RE7 carriages not working whole journey",
            "Lift keeps breaking at Mill Street. When will you actually repair it properly?",
        ],
    ),
    (
        "accessibility_and_onboard",
        "bikes_and_pets",
        [
            "Can I take my bike on the regional train?",
            "are dogs allowed on trams",
            "Do I need to pay for my dog on the ferry to Linholm?",
            "folding bike on the bus ok in rush hour?",
            "I'd like to bring my e-scooter on the tram, is that permitted?",
            "Is there a limit on how many bicycles the RE7 carries? We're a group of 6 cyclists on Sunday.",
            "Can my cat travel in a carrier on the bus",
            "bike reservation for train needed?",
            "Hello, can I carry big suitcase and also my small dog on bus to airport?",
            "what are the rules for cargo bikes on the ferry",
        ],
    ),
    # ------------------------------------------------------------------
    # Domain: lost_property_and_complaints
    # ------------------------------------------------------------------
    (
        "lost_property_and_complaints",
        "report_lost_item",
        [
            "I left my backpack on the 14 bus this morning around 8:30",
            "lost my phone on the tram, black iPhone with a green case",
            "Left a blue umbrella on the RE7 to Brackenfield, 17:05 departure. Has anyone handed it in?",
            "I think I dropped my wallet on the ferry yesterday, how do I report it",
            "my kid left his school bag on the bus, name Tom Hersey inside",
            "Forgot my laptop bag on the seat of the train from Oldcastle. Please help, it has work stuff.",
            "Hello, I lose my glasses in bus line 5 on Friday. Where I can ask?",
            "lost property form?",
            "Left a grey wheelchair cushion on tram T2 at St Ann's Square",
            "Has a set of keys with a red fob been found at Harbour Quay? Lost them around noon today.",
        ],
    ),
    (
        "lost_property_and_complaints",
        "lost_item_claim_status",
        [
            "I reported a lost bag last week, reference LP-30218, any news?",
            "you said my wallet was found, where do I pick it up",
            "How long do you keep found items before they're disposed of?",
            "still waiting to hear about my lost phone claim, it's been 10 days",
            "Can the lost property office post my found keys to me instead of me collecting them?",
            "what are the opening hours of the lost property office at Central",
            "got an email saying a match for my umbrella, how do i confirm its mine",
            "Is there a fee to collect an item from lost property?",
            "Update on claim LP-29877 please",
            "Someone else can collect my found backpack for me? I am in hospital.",
        ],
    ),
    (
        "lost_property_and_complaints",
        "complaint_staff_behaviour",
        [
            "The driver of the 22 at 7:50 today was incredibly rude to my elderly mother",
            "I want to make a complaint about a ticket inspector who shouted at me",
            "driver drove off while I was still knocking on the door, line 5, Mill St, 18:10",
            "Your staff at the Central Station ticket office were dismissive and unhelpful. Who do I complain to?",
            "bus driver on phone whole time while driving, dangerous",
            "My guide dog was refused by the tram conductor yesterday. This is unacceptable.",
            "revenue officer fined me even though my ticket was valid and wouldn't listen",
            "Hello, the driver did not stop for me at the bus stop, I was waving, three times this week!",
            "ferry crew were laughing at passengers who were seasick, really unprofessional",
            "how do I file a formal complaint about an employee",
        ],
    ),
    (
        "lost_property_and_complaints",
        "complaint_vehicle_condition",
        [
            "the heating on the RE7 has been broken for weeks, it's freezing",
            "tram was filthy, rubish everywhere and sticky seats",
            "Bus 14 was so overcrowded this morning I couldn't breathe. Put on more buses!",
            "The toilets on the 08:12 to Brackenfield were out of order and disgusting.",
            "seat belt broken on the airport coach, complaint",
            "why is the air con never working on the T2 trams in summer",
            "Smell of smoke on the bus, someone been smoking on back seats, nobody clean",
            "ferry cabin leaking water onto the seats during the crossing today",
            "I'd like to complain about the state of the carriages on the Oldcastle line: broken windows and graffiti.",
            "only two carriages on a friday evening train again, people standing in the toilets",
        ],
    ),
    # ------------------------------------------------------------------
    # Domain: accounts_and_cards
    # ------------------------------------------------------------------
    (
        "accounts_and_cards",
        "top_up_card",
        [
            "how do i add money to my Vela card",
            "top up card 6034 1172 8890 with £20",
            "Can I load a weekly ticket onto my smartcard at the machine?",
            "set up auto top-up when balance goes below £5",
            "I topped up online but the balance on my card hasn't changed when I tap",
            "where can i recharge my travel card near Harbour Quay",
            "Is there a minimum amount for topping up through the app?",
            "Hi, I want put credit on my card but shop say machine is broken. Other way?",
            "need to add credit pls",
            "My card balance is low. Can I pay with Apple Pay to top it up?",
        ],
    ),
    (
        "accounts_and_cards",
        "replace_lost_card",
        [
            "I've lost my Vela card, can you block it and send a new one?",
            "card stolen yesterday, has my monthly pass on it",
            "my smartcard snapped in half, how do I get a replacement",
            "Can the balance from my lost card be transferred to a new card? Card number ends 4471.",
            "new card please, old one doesn't work at the readers anymore",
            "How much does a replacement travel card cost?",
            "Hello, my card I lost it in city, there is still 30 pound. Can I have new card with the money?",
            "Please cancel card 6034 2290 1187 immediately, my wallet was stolen",
            "washed my student card in the washing machine and now it won't scan",
            "how long does it take for a replacement card to arrive in the post",
        ],
    ),
    (
        "accounts_and_cards",
        "update_account_details",
        [
            "I moved house, how do I change my address on my account?",
            "need to update the email on my account, old one doesn't exist anymore",
            "Change phone number on profile",
            "How do I update the bank card used for my direct debit season ticket?",
            "my surname changed after I got married, can you update it on my photocard account?",
            "Can I link my daughter's card to my account so I can manage it?",
            "I want to close my account and delete my data please",
            "switch off marketing emails, I only want journey alerts",
            "how do I change the photo on my concession card account, the old one is 8 years old",
            "Hello, the date of birth on my account is wrong, it says 1998 but I am born 1989.",
        ],
    ),
    (
        "accounts_and_cards",
        "login_problem",
        [
            "can't log in to the app, says password incorrect but I reset it twice",
            "forgot my password",
            "The verification code never arrives by SMS when I try to sign in.",
            "my account is locked after too many attempts, how do i unlock it",
            "App just shows a spinning wheel after I enter my login details",
            "I never recieved the activation email for my new account",
            "Hello, website say 'user not found' but I have account since 2 years. Please help.",
            "logged out of the app after the update and now face ID doesn't work to sign back in",
            "reset link expired before I could click it, send another pls",
            "Why does the website keep kicking me out every few minutes?",
        ],
    ),
    (
        "accounts_and_cards",
        "dispute_card_charge",
        [
            "I was charged £8.60 for one tram journey, that can't be right",
            "my bank card was charged twice for the same bus trip on 3 March",
            "Got charged the maximum fare because I forgot to tap out at Brackenfield. Can that be corrected?",
            "there's a transaction from you on my statement I don't recognise, £12.40 on 19 May",
            "Incomplete journey charge on my card, but the reader at Harbour Quay was broken so I couldn't touch out.",
            "Why was I not capped yesterday? I tapped 6 times and paid more than a day ticket",
            "dispute charge card ending 8890",
            "Your system took money from my Vela card when I tapped the inspector's device. I already had a valid ticket.",
            "Hello, I see 3 payments for 1 trip in my bank app. Please return 2 of them.",
            "Charged adult fare on my child card all week. Please check and fix.",
        ],
    ),
]


def build():
    domains = {}
    train = []
    for domain, intent, utterances in DATA:
        domains.setdefault(domain, []).append(intent)
        for u in utterances:
            train.append([u, intent])
    return {"domains": domains, "train": train}


def check(data):
    errors = []
    domains = data["domains"]
    train = data["train"]

    # every intent in exactly one domain
    owner = {}
    for d, intents in domains.items():
        if not 4 <= len(intents) <= 5:
            errors.append(f"domain {d} has {len(intents)} intents (want 4-5)")
        for i in intents:
            if i in owner:
                errors.append(f"intent {i} in both {owner[i]} and {d}")
            owner[i] = d

    # counts per intent, labels known
    counts = {}
    for u, i in train:
        if i not in owner:
            errors.append(f"utterance labelled with unknown intent {i}: {u!r}")
        counts[i] = counts.get(i, 0) + 1
    for i in owner:
        if counts.get(i, 0) != PER_INTENT:
            errors.append(f"intent {i} has {counts.get(i, 0)} utterances (want {PER_INTENT})")

    # grouped by intent in order
    seen_order = []
    for _, i in train:
        if not seen_order or seen_order[-1] != i:
            seen_order.append(i)
    if len(seen_order) != len(set(seen_order)):
        errors.append("train is not grouped contiguously by intent")

    # uniqueness (normalised)
    norm = {}
    for u, i in train:
        key = " ".join(u.lower().split())
        if key in norm:
            errors.append(f"duplicate utterance: {u!r}")
        norm[key] = i

    # length 3..30 words
    for u, _ in train:
        n = len(u.split())
        if not 3 <= n <= 30:
            errors.append(f"utterance has {n} words: {u!r}")

    return errors


def main():
    data = build()
    errors = check(data)
    if errors:
        for e in errors:
            print("ERROR:", e, file=sys.stderr)
        sys.exit(1)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    # re-read and re-check what was written
    with open(OUT, encoding="utf-8") as f:
        again = json.load(f)
    errors = check(again)
    if errors or again != data:
        print("ERROR: written file failed re-check", file=sys.stderr)
        sys.exit(1)
    n_int = sum(len(v) for v in data["domains"].values())
    lens = [len(u.split()) for u, _ in data["train"]]
    print(f"wrote {OUT}")
    print(
        f"domains={len(data['domains'])} intents={n_int} utterances={len(data['train'])} "
        f"words min={min(lens)} max={max(lens)} mean={sum(lens) / len(lens):.1f}"
    )
    for d, intents in data["domains"].items():
        print(f"  {d}: {', '.join(intents)}")


if __name__ == "__main__":
    main()
