// First names and profile-text snippets for the demo members. Names are
// grouped by language so a Dutch member is more likely called Sanne than
// Brittany; a member still gets a name from another group now and then, as in
// real life.
import type { Language } from '../reference/geo.ts'

export type Gender = 'male' | 'female'

export const FIRST_NAMES: Record<Language, Record<Gender, string[]>> = {
  en: {
    female: ['Emma', 'Olivia', 'Sophie', 'Charlotte', 'Grace', 'Chloe', 'Hannah', 'Megan'],
    male: ['James', 'Oliver', 'Jack', 'Liam', 'Noah', 'Ethan', 'Daniel', 'Ryan'],
  },
  nl: {
    female: ['Sanne', 'Lotte', 'Femke', 'Anouk', 'Eline', 'Marloes', 'Fleur', 'Noor'],
    male: ['Daan', 'Bram', 'Sem', 'Thijs', 'Jeroen', 'Ruben', 'Joost', 'Wouter'],
  },
  de: {
    female: ['Lena', 'Anna', 'Katharina', 'Julia', 'Johanna', 'Leonie', 'Sabine', 'Mia'],
    male: ['Lukas', 'Felix', 'Jonas', 'Maximilian', 'Tobias', 'Stefan', 'Florian', 'Matthias'],
  },
  fr: {
    female: ['Camille', 'Manon', 'Léa', 'Chloé', 'Juliette', 'Élise', 'Margaux', 'Inès'],
    male: ['Louis', 'Hugo', 'Lucas', 'Antoine', 'Julien', 'Mathieu', 'Théo', 'Nicolas'],
  },
  it: {
    female: ['Giulia', 'Francesca', 'Chiara', 'Martina', 'Alessia', 'Elena', 'Sara', 'Valentina'],
    male: ['Marco', 'Luca', 'Alessandro', 'Matteo', 'Lorenzo', 'Davide', 'Giovanni', 'Andrea'],
  },
  es: {
    female: ['Lucía', 'María', 'Carmen', 'Paula', 'Marta', 'Alba', 'Claudia', 'Elena'],
    male: ['Pablo', 'Javier', 'Alejandro', 'Diego', 'Sergio', 'Carlos', 'Álvaro', 'Miguel'],
  },
  pl: {
    female: ['Zuzanna', 'Katarzyna', 'Agnieszka', 'Magdalena', 'Ola', 'Natalia', 'Maja', 'Ewa'],
    male: ['Jakub', 'Kacper', 'Piotr', 'Tomasz', 'Michał', 'Mateusz', 'Krzysztof', 'Paweł'],
  },
}

/** Every name of a gender, for a pick regardless of language. */
export const allFirstNames = (gender: Gender): string[] =>
  Object.values(FIRST_NAMES).flatMap((byGender) => byGender[gender])

/**
 * Self-descriptions in the voice of a dating profile. A member's note is one
 * to three of these; they are written to read well in any order.
 */
export const NOTE_SNIPPETS: string[] = [
  'Coffee first, conversation second.',
  'I love long walks on the beach, but honestly a walk through the city works too.',
  'Weekend plans usually involve a market, a bike and too many plants.',
  'Looking for someone who laughs at their own jokes as much as I do.',
  'Amateur cook, professional taster.',
  'I am happiest somewhere with mountains and no phone signal.',
  'Bookworm with a soft spot for crime novels and rainy Sundays.',
  'Recently took up salsa lessons. My feet are still learning.',
  'Dog person, but cats seem to like me anyway.',
  'I work in healthcare and value kindness above everything.',
  'Teacher by day, guitarist by night (the neighbours are patient).',
  'Travelled to 23 countries and still want to see the rest.',
  'Not a fan of small talk, big fan of big questions.',
  'Let us skip the endless chatting and go for a drink.',
  'I run, I swim, and I celebrate with pizza.',
  'Honest, loyal and a little bit stubborn.',
  'Still looking for the best pancakes in town. Suggestions welcome.',
  'Family matters to me, and so does a good sense of humour.',
  'I like museums, festivals and quiet evenings in equal measure.',
  'Newly moved here and keen to discover the area with someone.',
  'Sunsets, road trips and old films make me happy.',
  'Gardening has become my therapy. Ask me about tomatoes.',
  'Can talk for hours about music, from jazz to techno.',
  'Early riser who loves a slow breakfast.',
  'I believe in second chances and good wine.',
  'My friends would describe me as calm, curious and a bit nerdy.',
  'Looking for something real, no games please.',
  'Sailing in summer, skiing in winter, cosy on the sofa in between.',
  'Photographer in my free time; you might end up in a picture.',
  'Life is too short for boring food and boring company.',
]

/** Snippets that only fit members of 45 and over. */
export const OLDER_NOTE_SNIPPETS: string[] = [
  'Divorced, two grown-up kids, ready for a new chapter.',
  'Retired and busier than ever: choir, grandchildren and cycling.',
  'The children have left home; time to think about myself again.',
  'Widowed a few years ago and ready to share life with someone again.',
]

/**
 * Short chats, each line answering the previous one. A conversation uses the
 * first 3-10 lines of a script, so every prefix must read naturally.
 */
export const CHAT_SCRIPTS: string[][] = [
  [
    'Hi! I liked your profile, how is your week going?',
    'Hi! Pretty good so far, busy at work. And yours?',
    'Same here, but the weekend is almost there.',
    'Any plans?',
    "A bike ride if the weather holds, and a friend's birthday on Saturday.",
    'Sounds nice! I will probably be at the market on Sunday.',
    'Which one? I love the one near the canal.',
    'That one, yes! Best cheese stall in town.',
    'Maybe we should meet there for a coffee?',
    'I would like that. Around eleven?',
  ],
  [
    'Good morning! Coffee person or tea person?',
    'Coffee, always. Two cups before I say a word :)',
    'Ha, same. Do you have a favourite place?',
    'There is a tiny place near the station with amazing flat whites.',
    'I think I know it! The one with the green door?',
    'Exactly that one.',
    'Then you owe me a recommendation for the cake as well.',
    'The apple pie. No discussion.',
    'Deal. Shall we test it together sometime?',
    'Sure, how about Thursday after work?',
  ],
  [
    'Hey, I noticed you like travelling. Where did you go last?',
    'Portugal, last month. Lisbon and a bit of the coast.',
    'Lovely! I have only been to Porto.',
    'Porto is great too. Did you try the francesinha?',
    'I did, and I needed a nap afterwards.',
    'Haha, that is the correct reaction.',
    'Where would you like to go next?',
    'Norway, I want to see the fjords.',
    'That has been on my list for years.',
    'Maybe we should compare notes over a drink.',
  ],
  [
    'Hi, I see we live quite close to each other.',
    'Oh nice, which part?',
    'Near the park, five minutes from the centre.',
    'I run there almost every morning!',
    'Then I have probably seen you go by while walking the dog.',
    'What kind of dog?',
    'A very lazy beagle called Max.',
    'I would love to meet Max.',
    'He would love that too, he likes everyone.',
    'Saturday morning walk then?',
  ],
  [
    'Hello! Your note made me smile. Are you really that stubborn?',
    'Only when I am right, which is most of the time :)',
    'Haha, honest at least.',
    'Always. What about you, any flaws I should know about?',
    'I sing in the car. Loudly. Badly.',
    'That is not a flaw, that is a talent.',
    'Tell that to my neighbours.',
    'What do you sing?',
    'Mostly old soul records. And a bit of ABBA.',
    'Now I really want to hear it.',
  ],
  [
    'Hey there, nice picture!',
    'Thank you! Yours too.',
    'What do you do when you are not on here?',
    'I teach at a primary school, and I play the guitar.',
    'That sounds like a fun combination.',
    'The kids think so. What about you?',
    'I work in IT, but I would rather be cooking.',
    'What is your best dish?',
    'Risotto. It takes patience, but it is worth it.',
    'I think I need to taste that to believe it.',
  ],
]

/** A nudge after an unanswered message, for a chat with two unread lines. */
export const CHAT_NUDGE = 'Are you still there? :)'
