"""Build intents.json: a small hand-written intent corpus for a university
student-services assistant (CLINC150 style), written for graphmind's tests
(issue 20).

Every utterance below was written by hand, one at a time; none comes from a
template. Run `python make_intents.py` to check the counts and (re)write
intents.json next to this file.
"""

import json
import random
from pathlib import Path

SOURCE = "written for graphmind's tests (issue 20), in our own words"
SEED = 20261127

INTENTS = {
    "enrolment_and_records": {
        "enrol_on_module": [
            "how do i sign up for CS2041 next semester",
            "Add me to the Introduction to Ethics elective please",
            "is there still space on PSY1103? I want to take it as an option module",
            "module registration for year 2 - when does it open?",
            "I missed the window for picking my optional units, can I still choose them?",
            "trying to register for ECON2210 but the portal says it's full",
            "Can first years take a Spanish language course alongside their degree?",
            "where do i choose my modules for spring term",
            "need to get onto MATH3302 befor friday",
            "Hi, I'd like to join the evening photography course run by the arts faculty, how do I book a place?",
        ],
        "change_or_drop_module": [
            "I want to swap HIST2204 for HIST2210",
            "how late can I drop a module without it showing on my record",
            "withdraw me from BIO1150 pls",
            "Is it possible to switch from the 30-credit dissertation to the 15-credit project?",
            "picked the wrong option, need to change it",
            "I'm taking too many credits this term and want to get rid of one course",
            "changing my minor from sociology to criminology, what's the process",
            "deadline for module changes this semester?",
            "Remove me from Organic Chemistry II, I've decided to do it next year instead",
            "Can I still replace Statistics 1 with Data Visualisation? it's week three already",
        ],
        "class_timetable": [
            "where is my lecture on monday morning",
            "what time is the CHEM1010 lab this week",
            "Show me my timetable for tomorrow",
            "my personal timetable is blank on the app, why?",
            "which room is the economics seminar in? it says MB-G.12 but that doesn't exist",
            "do I have any classes on Wednesday afternoon",
            "Are lectures for week 7 online or in person?",
            "When's my next tutorial",
            "can you export my class schedule to google calendar",
            "the 9am in the Adams Building clashes with another module, which one do I go to?",
        ],
        "request_transcript": [
            "I need an official transcript for a job application",
            "how do i get a copy of all my grades so far to send to a masters program",
            "order an official transcript",
            "Can you post a sealed academic record to the University of Toronto?",
            "How much does an extra printed transcript cost? I graduated in 2019",
            "Is there an electronic version of my marks I can share with employers, like the HEAR?",
            "where can I downlaod my academic record",
            "My transcript has the wrong module title for PHIL2003, who can reissue it?",
            "need a record of my first year results for a study abroad application by 15 March",
            "do transcripts show failed attempts or just the final mark",
        ],
        "suspend_or_withdraw_studies": [
            "I need to take a year out for health reasons, how does that work",
            "can i pause my degree and come back next September",
            "thinking about leaving uni altogether, what do I need to do",
            "Is a leave of absence possible in the middle of second year?",
            "how do I suspend my studies for a term, my mum is ill",
            "What happens to my student loan if I interrupt?",
            "I want to defer my final year by 12 months",
            "Withdrawing from my course - who do I tell?",
            "taking a break from studying, will I keep my student email?",
            "Can I return to my programme after two years away?",
        ],
        "student_status_letter": [
            "I need a letter proving I'm a student for council tax",
            "can you give me a confirmation of enrolment for my bank",
            "student status letter",
            "my landlord wants proof that I'm studying full time, where can I get that",
            "Need a document for the embassy confirming my course dates, 23 September 2024 to June 2027",
            "How do I print a certificate of attendance?",
            "Can the registry write to my employer confirming I'm on the MSc?",
            "Council tax office asked for an exemption certificate, how do I get one from the uni",
            "letter confirming my study for a visa renewal please",
            "is there a self-service way to download an enrolment certificate",
        ],
    },
    "exams_and_assessment": {
        "exam_timetable": [
            "when is my exam for ACC2100",
            "has the summer exam schedule been published yet",
            "What room is the statistics final in?",
            "Do I have two exams on the same day in May?",
            "exam dates for this term",
            "how long is the Contract Law paper and what time does it start",
            "wheres the Sports Hall exam venue, ive never been there",
            "Are January exams in person or on Moodle this year",
            "show me my personal exam timetable",
            "my exams clash - PHY1002 and MATH1004 are both 2pm on the 14th",
        ],
        "request_exam_resit": [
            "I failed EE2030, can I resit it in August?",
            "how do I register for the reassessment period",
            "Is there a fee to retake an exam",
            "when are the referral exams held",
            "got 32% in anatomy, what are my options to sit it again",
            "book me onto the resit for quantitative methods",
            "Do resit marks get capped at 40?",
            "I missed my exam because I overslept, can I take it later in the summer?",
            "Second attempt at the Financial Reporting paper - where do I sign up",
            "Can I redo the whole module instead of just the exam?",
        ],
        "coursework_extension": [
            "can i get an extension on my essay, I've had covid all week",
            "Need 3 more days for the SOC2005 report please",
            "how do I request more time for an assignment",
            "My laptop died the night before the deadline. Is there any way to hand in late without penalty?",
            "extension request for the lab write-up due Friday 12th",
            "What counts as a good reason to push back a coursework deadline?",
            "Who approves a deadline extension, my tutor or the school office?",
            "my grandmother passed away and I can't finish my dissertation by the 1st",
            "late submission - will I lose marks if my extension form is still pending",
            "Is it possible to have 7 days extra for the group project, two members dropped out",
        ],
        "check_results": [
            "when do semester one results come out",
            "what did I get in BUS1001",
            "Have my marks for the January exams been released?",
            "Show me my grades",
            "I can't see my final degree classification on the portal",
            "did i pass organic chemisty",
            "How is my year average calculated, I have 58, 64 and 71",
            "results day 2025 date?",
            "my dissertation mark still isn't up, it's been five weeks",
            "Where can I find feedback and the score for my last essay",
        ],
        "exam_adjustments": [
            "I'm dyslexic, can I get extra time in exams",
            "how do I apply for reasonable adjustments for assessments",
            "Can I sit my finals in a smaller room? Big halls give me panic attacks",
            "I broke my wrist, will I be allowed a scribe for the exam on Monday",
            "need to use a computer instead of handwriting in exams because of my condition",
            "Who do I send my ADHD diagnosis to so I get rest breaks during tests?",
            "access arrangements deadline for summer exams?",
            "Are there separate exam rooms for students with disabilities",
            "my support plan says 25% extra time but it wasn't applied yesterday",
            "Can I bring food and water into the exam for my diabetes",
        ],
        "academic_appeal": [
            "I want to appeal my final grade",
            "How do I challenge a board of examiners decision",
            "I think my essay was marked unfairly, can it be remarked?",
            "what's the deadline to submit an academic appeal",
            "they said I have to leave the course after failing twice, can I contest that",
            "Request a review of my dissertation marking",
            "complaint about how my exam was marked",
            "Is there a form to dispute a decision on progression?",
            "my degree classification is a 2:2 but I think there was an error adding up marks",
            "Can the student union help me with an appeal hearing?",
        ],
    },
    "money_and_fees": {
        "pay_tuition_fees": [
            "how do i pay my tuition",
            "Can I pay fees in instalments?",
            "pay £4,625 towards my fees by card",
            "What are the bank details for paying course fees from abroad?",
            "my fee payment keeps getting declined online",
            "When is the second instalment due?",
            "I have an outstanding balance of 1200 pounds, where do I settle it",
            "does the uni accept Flywire payments",
            "Set up a direct debit for this year's fees",
            "I'm self-funded, what's the last date to pay before I get deregistered",
        ],
        "apply_hardship_fund": [
            "I can't afford rent this month, is there emergency money available",
            "how do I apply for the hardship fund",
            "Are there grants for students struggling financially?",
            "my part time job cut my hours and I'm broke, can the uni help",
            "Emergency loan please, I have £12 until the end of the month",
            "whos elegible for the student support fund?",
            "can international students get financial help in an emergency",
            "what documents do I need for a hardship application, bank statements?",
            "I need help paying for my laptop repair, can't study without it",
            "Is there a food voucher scheme or something for people who are skint",
        ],
        "student_loan_problem": [
            "my student loan hasn't arrived yet",
            "Why is my maintenance loan payment delayed?",
            "Student Finance says the uni hasn't confirmed my attendance",
            "when will my SFE payment come through for term 2",
            "loan hasn't been paid and it's been two weeks since the start of term",
            "can you confirm my registration with Student Finance England so they release my money",
            "I got less than expected from my loan this term, only £1,800",
            "SAAS funding not in my account, who should I contact",
            "Has my enrolment been confirmed to the loans company?",
            "Tuition fee loan status shows pending, is that normal",
        ],
        "apply_for_scholarship": [
            "what scholarships can I apply for as a postgrad",
            "Are there any bursaries for care leavers",
            "how do I apply for the Vice-Chancellor's Excellence Award",
            "Deadline for the sports scholarship?",
            "Is there funding for students from low income families",
            "can I get a merit scholarship for getting a first in year 1",
            "I'm an international student from Kenya, any fee discounts or awards available?",
            "list of bursaries",
            "Do I need to reapply every year to keep my scholarship?",
            "Can I get money to go on a study abroad exchange in Japan?",
        ],
        "request_fee_refund": [
            "I withdrew in October, will I get some of my fees back",
            "I was charged twice for tuition, can I get a refund",
            "how do I claim back an overpayment on my student account",
            "refund for the £200 graduation fee, I'm not attending",
            "My sponsor paid my fees after I'd already paid, I need that money returned",
            "How long does a refund take to come back to my card?",
            "Money back for the field trip that got cancelled?",
            "Is the application fee refundable if my visa is refused?",
            "There's a credit of £350 on my account, can it be sent to my bank",
            "what's the refund policy if I leave in the first term",
        ],
        "fee_invoice_or_receipt": [
            "I need an invoice so my employer can pay my course fees",
            "Can I get a receipt for the payment I made on 3 October?",
            "my sponsor needs a fee statement with the university's VAT number",
            "Download proof of payment for tuition",
            "how do I get an invoice addressed to my company instead of me",
            "Send a copy of my fees statement to my embassy sponsor",
            "need something showing how much I've paid this year for a tax claim",
            "where can i find my student account statement",
            "the invoice has my name spelled wrong, can you reissue it",
            "Sponsor letter for the Saudi Cultural Bureau with the breakdown of fees, please",
        ],
    },
    "campus_life_and_support": {
        "apply_for_accommodation": [
            "how do I apply for halls for next year",
            "Is there any university housing left for January starters?",
            "I want a room in Cedar Court, is it too late",
            "Are there family flats for students with kids",
            "when do returning students get to apply for uni accommodation",
            "accommodation application deadline",
            "can I request an en-suite room with a friend",
            "I'm a postgraduate from overseas, is a room guaranteed?",
            "looking for somewhere to live on campus from September, budget around £150 a week",
            "How do I swap rooms? My flatmates are awful",
        ],
        "report_room_repair": [
            "the heating in my flat isn't working",
            "Shower in room 14, Block B is leaking everywhere",
            "how do I report a broken window in halls",
            "there's mould on my bedroom wall",
            "Kitchen oven broken in Elm House, flat 3",
            "maintenance request: door lock stuck",
            "no hot water since yesturday in Maple Halls",
            "Can someone fix the light in my room, it keeps flickering",
            "We've got mice in the kitchen",
            "the fire alarm keeps going off for no reason at 3am every night",
        ],
        "reset_password": [
            "I forgot my uni password",
            "locked out of my student account after too many attempts",
            "how do I reset my login for the portal",
            "change my password please",
            "my password expired and now I can't log into Moodle",
            "New phone, the authenticator app is gone so I can't sign in",
            "Can't get into Outlook, it keeps saying incorrect credentials",
            "Reset MFA please, student number 21098734",
            "haven't had my login details yet as a new starter",
            "my account is disabled, says contact IT",
        ],
        "wifi_problem": [
            "eduroam wont conect on my laptop",
            "Wifi in the library is really slow today",
            "how do I get my Xbox online in halls",
            "no internet in my room in Birch Hall",
            "the wireless keeps dropping out in lecture theatre 2",
            "What's the guest network password for visitors?",
            "My phone says certificate error when joining the campus wifi",
            "is the network down? nothing loads",
            "Can't connect to eduroam since the Windows update",
            "ethernet port in my room doesn't work",
        ],
        "renew_library_book": [
            "renew my library books",
            "can I extend the loan on the book due tomorrow",
            "how many times can I renew a loan",
            "I've got an overdue fine, will renewing it stop the charges?",
            "Keep 'Principles of Economics' for another week please",
            "the renew button is greyed out for one of my items",
            "Someone has requested the book I have, can I still keep it longer",
            "Loan period for short loan items - can I extend those?",
            "Is it possible to renew books over the phone while I'm away",
            "all my library loans expire on the 20th, push them back",
        ],
        "book_counselling": [
            "I'd like to talk to a counsellor",
            "how do I book an appointment with the wellbeing service",
            "feeling really anxious about everything and don't know who to talk to",
            "is student counseling free",
            "waiting list for therapy at uni?",
            "can I see someone about my mental health this week",
            "I've been struggling since my breakup and can't focus, is there support",
            "Book a session with the mental health adviser",
            "Do you have any counsellors who speak Mandarin?",
            "is there an out-of-hours number if I'm not coping at night",
        ],
    },
}


def _key(text):
    """Case- and whitespace-insensitive key used for duplicate checks."""
    return "".join(text.lower().split())


def check(intents):
    assert len(intents) == 4, f"expected 4 domains, got {len(intents)}"
    seen = {}
    all_intents = set()
    for domain, by_intent in intents.items():
        assert len(by_intent) == 6, f"{domain}: expected 6 intents, got {len(by_intent)}"
        for intent, utterances in by_intent.items():
            assert intent not in all_intents, f"intent {intent} used in two domains"
            all_intents.add(intent)
            assert len(utterances) == 10, f"{intent}: expected 10 utterances, got {len(utterances)}"
            for u in utterances:
                assert u.strip(), f"{intent}: empty utterance"
                k = _key(u)
                assert k not in seen, f"duplicate utterance {u!r} ({intent} and {seen[k]})"
                seen[k] = intent
    assert len(seen) == 240


def build(intents):
    train = [
        [u, intent] for by_intent in intents.values() for intent, utterances in by_intent.items() for u in utterances
    ]
    random.Random(SEED).shuffle(train)
    return {"source": SOURCE, "domains": {d: list(by_intent) for d, by_intent in intents.items()}, "train": train}


def main():
    check(INTENTS)
    out = Path(__file__).resolve().parent / "intents.json"
    with open(out, "w", encoding="utf-8") as f:
        json.dump(build(INTENTS), f, ensure_ascii=False)
    print(f"wrote {out}: {sum(len(v) for d in INTENTS.values() for v in d.values())} utterances")


if __name__ == "__main__":
    main()
