"""Build intents.json: a hand-written, CLINC150-style intent corpus for a
city council's citizen assistant (graphmind issue 20).

Every utterance below was written by hand, one at a time; none comes from a
template. Run `python make_intents.py` to check the counts and regenerate
intents.json next to this file.
"""

import json
import os
import random

SOURCE = "written for graphmind's tests (issue 20), in our own words"
SEED = 20261126
N_DOMAINS = 5
N_INTENTS = 6
N_UTTERANCES = 12
MIN_WORDS, MAX_WORDS = 3, 25

INTENTS = {
    "waste_and_recycling": {
        "report_missed_collection": [
            "my bin wasn't emptied this morning",
            "The recycling lorry skipped our street again, Hawthorn Close, third week running.",
            "bins not collected on Mill Lane",
            "Hi there, the green waste truck came down Park Road around ten but didn't take my brown bin, can someone come back for it?",
            "they forgot my house on collection day",
            "Nobody picked up the rubbish yesterday even though it was out by 7am.",
            "how do I report a missed pickup",
            "Our food caddy has been sitting at the kerb since Tuesday, still full.",
            "missed bin at 14 Orchard Road",
            "why didnt the binmen take my recycling",
            "Could you send the crew back? The whole block on Station Street was missed.",
            "general waste left behind again, it's starting to smell",
        ],
        "order_new_bin": [
            "I need a new wheelie bin, mine has cracked down the side",
            "Can I get a second recycling box? One isn't enough for a family of five.",
            "order replacement bin",
            "Our bin was stolen last night, how do I get another one?",
            "just moved into a new build on Elm Grove and there are no bins here",
            "the lid snapped off my blue bin",
            "Is there a charge for a larger 240 litre bin?",
            "request a food waste caddy please",
            "How long does it take for a garden waste bin to be delivered?",
            "bin lorry crushed my bin, want a new one",
            "Could I swap my small bin for a bigger one?",
            "where do i ask for extra recycling bags",
        ],
        "bulky_item_collection": [
            "Can you collect an old sofa from outside my flat?",
            "I want to get rid of a fridge freezer, do you take those?",
            "book a bulky waste collection",
            "how much to remove a mattress and two chairs",
            "need someone to take away an old washing machine",
            "Is there a service for large furniture like wardrobes?",
            "got a broken bed frame and a carpet to dispose of",
            "What's the price for picking up 3 large items?",
            "Please arrange a pickup for a dining table on Queens Avenue.",
            "do you do collections of big stuff or do I have to take it to the tip",
            "hi can the council pick up a piano",
            "Next available slot to collect an old TV cabinet?",
        ],
        "collection_days": [
            "when is bin day on Riverside Drive",
            "Which week is recycling, this one or next?",
            "what day do you collect garden waste",
            "Are collections changing over Christmas?",
            "Is my rubbish picked up on the bank holiday Monday?",
            "show me the collection calendar for my address",
            "Which bin goes out this week?",
            "bin days for postcode LS6 2QT",
            "Do I put the black bin out tommorow or Thursday?",
            "what time do the bin lorries usually come round",
            "Can I get a reminder the night before collection?",
            "schedule for the brown bin in winter",
        ],
        "what_goes_in_which_bin": [
            "Can pizza boxes go in the recycling?",
            "which bin do batteries go in",
            "Is soft plastic like crisp packets recyclable here?",
            "where should I put broken glass",
            "Do I need to rinse yoghurt pots before putting them out?",
            "can i put nappies in the general waste",
            "What do I do with old paint tins?",
            "Are takeaway coffee cups accepted in the blue bin?",
            "tetra pak cartons, recycling or rubbish?",
            "how to dispose of used cooking oil",
            "Does shredded paper go in with cardboard?",
            "Is it ok to put grass cuttings in the food caddy?",
        ],
        "report_fly_tipping": [
            "Someone has dumped a load of rubble in the alley behind Kingsway.",
            "report fly tipping",
            "there are black bags dumped by the bottle bank on Station Street",
            "A van just unloaded a mattress in the lay-by, I've got the number plate.",
            "illegal dumping near the canal towpath",
            "Who clears up rubbish people leave on the pavement?",
            "pile of tyres abandoned in the field next to Brookfield Park",
            "Somebody keeps leaving old furniture outside the empty shop on Mill Lane, can you deal with it?",
            "How do I report a neighbour tipping waste on the verge?",
            "asbestos sheets dumped on our lane, looks dangerous",
            "fridge left on the corner of Elm Grove for two weeks",
            "Can you send someone to clear fly-tipped waste from the woods?",
        ],
    },
    "parking_and_transport": {
        "pay_parking_fine": [
            "I want to pay my parking ticket",
            "How do I pay a penalty charge notice online?",
            "pay PCN AB12345678",
            "got a ticket outside the station yesterday, where can I settle it",
            "Is it still £35 if I pay within 14 days?",
            "can i pay a parking fine by phone",
            "Need to pay the fine that was on my windscreen on Saturday.",
            "what payment methods do you accept for parking penalties",
            "pay off a penalty notice",
            "I've recieved a charge certificate, can I still pay the reduced amount?",
            "Where's the link to pay a bus lane fine?",
            "card declined when paying my parking ticket, what now",
        ],
        "appeal_parking_fine": [
            "I want to challenge a parking ticket, the signs were covered",
            "How do I appeal a PCN?",
            "My car broke down, I shouldn't have been fined for that.",
            "dispute parking penalty",
            "I had a valid permit clearly displayed on the dashboard the whole time and still got a ticket on Tuesday, this is so unfair",
            "Can I make a formal representation against a fine I got on Queens Avenue?",
            "the pay and display machine was broken, contesting my ticket",
            "whats the deadline to appeal a parking fine",
            "My appeal was rejected, can I take it to the tribunal?",
            "ticket was issued 2 minutes after my time ran out, is that even allowed?",
            "How do I send photos as evidence for my case?",
            "Wrong registration on the notice, I don't even own that car.",
        ],
        "residents_parking_permit": [
            "How do I apply for a residents parking permit?",
            "renew my parking permit",
            "Can my visitors park on Hawthorn Close? Do I need vouchers for them?",
            "we've got two cars now, what does it cost to park the second one outside the house",
            "Just moved to Victoria Street, need a permit for my car",
            "My permit expires next week, can I renew online?",
            "change the vehicle registered on my permit",
            "buy visitor parking scratch cards",
            "Is our road in a controlled parking zone?",
            "lost the residents' sticker from my windscreen, can I get another",
            "Do electric cars get cheaper on-street parking?",
            "waiting list for zone C?",
        ],
        "report_road_damage": [
            "There's a massive pothole on Orchard Road.",
            "report a pothole",
            "Huge hole in the road near the school gates, someone will come off their bike",
            "the road surface on Kingsway is breaking up",
            "My tyre burst because of a pothole on Mill Lane, can I claim?",
            "cracked pavement outside number 22 Elm Grove, my mum tripped",
            "When are you going to fix the holes on Riverside Drive?",
            "sunken drain cover in the middle of the road",
            "the pothole you filled last month has opened up again",
            "Who do I tell about a dangerous hole in the cycle lane?",
            "deep one at the junction of Station Street and Queens Avenue, nearly lost a wheel",
            "uneven tarmac, wobbly paving slabs, who fixes that",
        ],
        "blue_badge": [
            "How do I apply for a blue badge?",
            "My dad has trouble walking, can he get a disabled parking permit?",
            "renew blue badge",
            "Can I park on double yellows with a blue badge?",
            "Is there a disabled bay I can request outside my house?",
            "lost my blue badge",
            "How long does a badge application take to process?",
            "does my son qualify, he has autism",
            "Someone is misusing a disabled badge at the supermarket, who do I tell?",
            "where can I park free with a disability permit in the town centre",
            "badge expired last month, can I still use it?",
            "Need a parking concession for my wife, she uses a wheelchair.",
        ],
        "report_abandoned_vehicle": [
            "There's a car that hasn't moved for months on Hawthorn Close",
            "report an abandoned vehicle",
            "Burnt out car in the car park at Brookfield Park",
            "A van with flat tyres and no tax has been sitting outside my house since March.",
            "who removes dumped cars",
            "untaxed car left on the verge, windows smashed",
            "Can the council tow away a caravan that's been left on our street?",
            "abandoned motorbike chained to a lamppost for ages",
            "How long before you remove a car that's clearly been dumped?",
            "There's a car with no number plates parked in the cul-de-sac",
            "a stolen looking hatchback has been in the lay-by on Kingsway for three weeks",
            "Is it abandoned if it hasn't moved in 6 weeks? It's half blocking our drive.",
        ],
    },
    "library": {
        "renew_loans": [
            "Can I renew my library books?",
            "renew my loans please",
            "I need the novels for another two weeks, how do I extend them?",
            "How many times can a book be renewed?",
            "my books are due tomorrow but I haven't finished them",
            "extend the due date on my audiobooks",
            "Renew everything on card 2098 4471 please.",
            "why can't I renew this one, it says reserved",
            "Is it possible to keep a DVD a bit longer?",
            "Can I do it over the phone? I'm away on holiday.",
            "want to borrow my cookery book for longer",
            "online renewal isn't working for me",
        ],
        "reserve_book": [
            "Can I reserve a book that's currently out on loan?",
            "put a hold on the new Richard Osman",
            "I'd like to request a title from another branch to be sent to Northgate.",
            "how much does it cost to reserve an item",
            "Is there a waiting list for Lessons in Chemistry?",
            "order in a book you don't have in stock",
            "Could you get me a copy of a textbook through interlibrary loan?",
            "Can you tell me when my reservation is ready to collect?",
            "save me the latest Jamie Oliver cookbook",
            "what's my place in the queue for a book I requested",
            "Please could you set aside a large print edition of the new Ann Cleeves for my grandmother, she'll pick it up from Northgate on Friday",
            "book request for Central Library pickup",
        ],
        "library_opening_hours": [
            "What time does the library close today?",
            "Is Central Library open on Sundays?",
            "libary opening hours Northgate branch",
            "are libraries open on Easter Monday",
            "Do you stay open late on Thursdays?",
            "when does the library open tomorrow",
            "Will the mobile library come to our village this week?",
            "library hours over the summer holidays",
            "Is the Riverside branch still closed for refurbishment?",
            "can i get in before 9, need to print something",
            "which days is it shut this week",
            "what are the staffed hours at the branch on Mill Lane",
        ],
        "library_membership": [
            "How do I join the library?",
            "I lost my library card",
            "Can my 4 year old get her own card?",
            "sign up for library membership",
            "What ID do I need to register?",
            "forgot the PIN for my library account",
            "Can I join online or do I have to come in?",
            "replace damaged library card",
            "Is it free if I live outside the borough?",
            "update the address on my library account",
            "card expired, how do i reactivate it",
            "need a library number to use the ebook app",
        ],
        "library_charges": [
            "How much do I owe on my library account?",
            "pay library fines",
            "I lost a book I borrowed, what do I have to pay?",
            "Are there late fees for children's books?",
            "my account is blocked because of charges",
            "Can I pay for a damaged DVD online?",
            "Why was I charged £2.40 last week?",
            "pay for a lost book",
            "do you still charge for overdue items",
            "I returned it late but I was in hospital, can the fine be waived?",
            "settle outstanding library balance",
            "What's the replacement cost for a lost audiobook CD set?",
        ],
        "book_library_room": [
            "Can I book a study room at Central Library?",
            "reserve a meeting room for Saturday afternoon",
            "Do you have a quiet room for group revision?",
            "how much to hire the community room at the library",
            "need to use a computer for an hour to fill in a job form",
            "I need a private space for a job interview on Teams",
            "Is there a room we can use for our book club once a month?",
            "study space booking Northgate",
            "Can I book a PC session for tomorrow morning?",
            "hire the library hall for a talk, about 40 people",
            "are the study pods bookable or first come first served",
            "cancel my room booking for Friday",
        ],
    },
    "taxes_and_permits": {
        "pay_council_tax": [
            "How do I pay my council tax?",
            "set up direct debit for council tax",
            "I missed this month's instalment, what happens now?",
            "Can I spread the payments over 12 months instead of 10?",
            "Where can I pay the bill by card?",
            "I got a reminder letter but I already paid last week",
            "how much do I owe for this year",
            "Account number 4400123, I'd like to make a payment.",
            "cant afford the full amount this month, any options",
            "change the date my direct debit comes out",
            "pay council tax arrears",
            "Is there a way to pay at the post office?",
        ],
        "council_tax_discount": [
            "I live alone, can I get a single person discount?",
            "Are students exempt from council tax?",
            "apply for council tax reduction",
            "My house is empty while it's being renovated, do I still pay?",
            "I'm on universal credit, is there help with my bill?",
            "discount for a carer living with me",
            "my son turned 18 in October but he's still at school doing his A levels, does that change anything for our discount?",
            "Is there a reduction for someone with severe dementia?",
            "my partner moved out so it's just me now, does that lower the bill",
            "exemption for a property after a death in the family",
            "does the disabled band reduction apply if we have a wheelchair",
            "can pensioners get money off",
        ],
        "planning_permission": [
            "Do I need planning permission for a rear extension?",
            "How do I apply to build a garage?",
            "Can I do a loft conversion without permission?",
            "check status of my planning application",
            "Neighbour is building a huge fence, did they get approval?",
            "how tall can a garden shed be before i need to apply",
            "submit drawings for a two storey side extension",
            "Is my house in a conservation area?",
            "objecting to the flats proposed on Riverside Drive",
            "building regs sign off for new windows",
            "Want to convert my garage into a bedroom, what's the process",
            "how much is the fee for a householder application",
        ],
        "street_use_permit": [
            "We'd like to close Hawthorn Close for a street party in June.",
            "do I need a licence to put a skip on the road",
            "apply for a scaffolding permit",
            "How far ahead do I have to apply for a road closure?",
            "Can I park a removal lorry on the street for a day? Need to suspend the bays.",
            "permission for tables and chairs on the pavement outside my cafe",
            "skip permit Orchard Road, 2 weeks",
            "Our school wants to close the road outside for a fun run, who do we ask?",
            "cost of a street party licence",
            "Is a permit needed for a builder's hoarding on the footway?",
            "Can we put bunting across the street for the summer fair?",
            "temporary traffic order for a film shoot on Kingsway",
        ],
        "business_licence": [
            "How do I get a licence to sell food from a van?",
            "I want to open a takeaway, which licences do I need?",
            "we want to start serving wine and beer at our little deli, what do we apply for",
            "Do I need a permit to run a market stall on Saturdays?",
            "my private hire badge runs out in November, how do I renew it",
            "registering a home baking business",
            "Am I allowed to have a band playing in the pub on Friday nights?",
            "street trading consent for selling ice cream on the seafront",
            "how long does a premises licence take",
            "I'm starting a dog grooming business from home, any permits?",
            "Can I sell hot drinks at the car boot sale without a licence?",
            "transfer the licence when I buy an existing shop",
        ],
        "moving_home_council_tax": [
            "I'm moving out next month, how do I tell you?",
            "update my address for council tax",
            "just bought a house on Elm Grove, need to register for council tax",
            "moving house within the borough",
            "I've left the property, close my account please",
            "Who do I notify when a tenant moves into my flat?",
            "change the name on the bill after I got married",
            "My mum has moved into a care home, what do we do about her house?",
            "new tenants from 1 September at 14 Station Street",
            "how do I get my final bill when I move away",
            "We moved in on the 3rd, when will the first bill arrive?",
            "add my partner to the account, she's moved in with me",
        ],
    },
    "parks_and_recreation": {
        "book_sports_facility": [
            "Can I book a tennis court at Victoria Park for Saturday?",
            "hire a football pitch for a Sunday league match",
            "how much to book the cricket nets",
            "reserve the basketball court for an hour tonight",
            "Are the bowling greens available to book in May?",
            "booking 5 a side pitch with floodlights",
            "We need a pitch every week for our under 10s team.",
            "Can I cancel my court booking and get a refund?",
            "Is the multi-use games area free or do I need to book?",
            "book badminton at the leisure centre",
            "Want to hire the athletics track for our school sports day.",
            "padel court slots this weekend?",
        ],
        "swimming_pool_info": [
            "What time is public swimming at the leisure centre?",
            "Is the outdoor lido open yet?",
            "How much is a swim for a child?",
            "lane swimming times Tuesday",
            "Are there women-only sessions at Brookfield pool?",
            "can i bring a 6 year old to the pool without another adult",
            "pool closed today?",
            "Do pensioners get free swimming?",
            "when is the fun session with the inflatables",
            "Is the small pool warm enough for a baby?",
            "monthly swim pass price",
            "holiday timetable for the baths",
        ],
        "report_park_problem": [
            "The swings in Victoria Park are broken.",
            "There's graffiti all over the bandstand.",
            "report broken glass in the playground",
            "A tree fell across the path in Brookfield Park during the storm.",
            "the park bins are overflowing again",
            "Someone has smashed the fence around the duck pond",
            "the toilets at the park have been locked all week",
            "dog poo everywhere on the playing field, can you do something",
            "Slide has a sharp edge, a child cut their hand",
            "grass hasn't been cut for ages at the recreation ground",
            "Kids have set fire to a bench near the skate park.",
            "who do I tell about a dead branch hanging over the footpath",
        ],
        "allotments": [
            "How do I get an allotment?",
            "waiting list for allotments",
            "how long is the wait for a plot at Mill Lane",
            "Can I have a half plot? A full one is too much for me.",
            "allotment rent this year",
            "I want to give up my plot",
            "Are sheds allowed on council allotments?",
            "Can I keep chickens on my allotmant?",
            "the plot next to mine is overgrown and full of weeds",
            "Is there a community garden I could join instead of waiting?",
            "where to pay the yearly plot fee",
            "apply for a growing space near Riverside",
        ],
        "join_activity_class": [
            "Sign my daughter up for the summer holiday sports camp.",
            "Are there any yoga classes in the park?",
            "swimming lessons for a 5 year old",
            "Is there a walking group for over 60s?",
            "book a place on the nature walk this Sunday",
            "what activities are on for kids at half term",
            "Can adults join the beginners' tennis coaching?",
            "enrol in the Tuesday aerobics at the community centre",
            "Is there still space on the junior football course?",
            "buggy fitness sessions near me",
            "cancel my son's place on the climbing course",
            "any free exercise classes for people on low income",
        ],
        "park_event_booking": [
            "Can we hold a wedding ceremony in the rose garden?",
            "Our church wants to hire part of Victoria Park for a charity fun day in July with stalls, a raffle and maybe a small stage.",
            "book the picnic shelter for a birthday party",
            "Do I need permission for a bouncy castle in the park?",
            "How do I apply to hold a music festival on the common?",
            "reserve the bandstand for a brass band concert",
            "Can I set up a gazebo for a family barbecue at Brookfield Park?",
            "event application for a dog show in August",
            "is there a fee to use the green for a 200 person gathering",
            "hire the pavilion for a christening",
            "We'd like to run a bootcamp business in the park, do we need a licence?",
            "what's the process for filming in a council park",
        ],
    },
}


def check(intents):
    assert len(intents) == N_DOMAINS, f"expected {N_DOMAINS} domains, got {len(intents)}"
    seen = {}
    intent_names = set()
    for domain, by_intent in intents.items():
        assert len(by_intent) == N_INTENTS, f"{domain}: {len(by_intent)} intents"
        for intent, utterances in by_intent.items():
            assert intent not in intent_names, f"intent {intent} used twice"
            intent_names.add(intent)
            assert len(utterances) == N_UTTERANCES, f"{intent}: {len(utterances)} utterances"
            assert len(set(utterances)) == N_UTTERANCES, f"{intent}: repeated utterance"
            for u in utterances:
                key = " ".join(u.lower().split())
                assert key not in seen, f"duplicate utterance {u!r} ({intent}, {seen.get(key)})"
                seen[key] = intent
                n = len(u.split())
                assert MIN_WORDS <= n <= MAX_WORDS, f"{u!r}: {n} words"
    return len(seen)


def build(intents):
    train = [
        [u, intent] for by_intent in intents.values() for intent, utterances in by_intent.items() for u in utterances
    ]
    random.Random(SEED).shuffle(train)
    return {
        "source": SOURCE,
        "domains": {domain: list(by_intent) for domain, by_intent in intents.items()},
        "train": train,
    }


def main():
    n = check(INTENTS)
    data = build(INTENTS)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "intents.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=None, ensure_ascii=False)
    print(
        f"wrote {out}: {len(data['domains'])} domains, "
        f"{sum(len(v) for v in data['domains'].values())} intents, {n} utterances"
    )


if __name__ == "__main__":
    main()
