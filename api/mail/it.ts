import {
  complaintOf as c,
  type LocaleTemplates,
  type MailVars,
  messageOf as m,
  statementOf as s,
} from './types.ts'

const rules: Record<string, string> = {
  harassment: `molestie`,
  spam_scam: `spam o truffe`,
  fake_profile: `profili falsi`,
  explicit_content: `contenuti espliciti`,
  underage: `iscritti minorenni`,
  other: `le nostre condizioni d’uso`,
}
const whats: Record<string, (v: MailVars) => string> = {
  warn: () => `Ti diamo un avvertimento formale.`,
  suspend: (v) =>
    `Abbiamo sospeso il tuo account fino al ${s(v).ends} (UTC). Fino ad allora non puoi accedere.`,
  ban: () => `Abbiamo chiuso il tuo account in modo definitivo (ban).`,
  remove_photo: () => `Abbiamo rimosso una foto dal tuo profilo.`,
  remove_text: () => `Abbiamo rimosso il testo del tuo profilo.`,
}
const whatOf = (v: MailVars) => whats[s(v).kind]?.(v) ?? ''

/** Italian (formal: Lei), worded to avoid gendered participles. */
export const it: LocaleTemplates = {
  activate: (v) => ({
    subject: `Attivi il suo account ${v.site}`,
    lines: [
      `Gentile ${v.name},`,
      `le diamo il benvenuto su ${v.site}! Per attivare il suo account, la preghiamo di confermare il suo indirizzo email.`,
      'Il link può essere usato una sola volta e scade dopo 7 giorni.',
      'Se non ha effettuato la registrazione, può ignorare questa email.',
    ],
    action: { label: 'Attiva il mio account', url: v.link },
  }),
  signup_exists: (v) => ({
    subject: `Tentativo di registrazione su ${v.site}`,
    lines: [
      `Gentile ${v.name},`,
      `qualcuno ha tentato di creare un nuovo account ${v.site} con questo indirizzo, al quale è già associato un account.`,
      'Se il tentativo è partito da lei, effettui invece l’accesso; se ha dimenticato la password, può reimpostarla dalla pagina di accesso.',
      'In caso contrario, può ignorare questa email: non è stato modificato nulla.',
    ],
    action: { label: 'Accedi', url: v.link },
  }),
  reset: (v) => ({
    subject: `Reimpostazione della password di ${v.site}`,
    lines: [
      `Gentile ${v.name},`,
      'abbiamo ricevuto una richiesta di reimpostazione della sua password. Può sceglierne una nuova tramite il link qui sotto.',
      'Il link può essere usato una sola volta e scade dopo 1 ora. Con l’impostazione di una nuova password, tutte le altre sessioni verranno chiuse.',
      'Se non ha richiesto la reimpostazione, ignori questa email: la sua password resterà invariata.',
    ],
    action: { label: 'Scegli una nuova password', url: v.link },
  }),
  login_unlock: (v) => ({
    subject: `Accesso a ${v.site} temporaneamente bloccato`,
    lines: [
      `Gentile ${v.name},`,
      `ci sono stati troppi tentativi di accesso al suo account ${v.site} con una password sbagliata, quindi l’accesso a questo account è bloccato per un po’, anche per lei.`,
      'Se era lei, può accedere di nuovo subito con il pulsante qui sotto. Il link può essere usato una sola volta e scade dopo 1 ora.',
      'Se non era lei, forse qualcuno sta cercando di indovinare la sua password. Senza la password nessuno può entrare; se la usa anche altrove o se è corta, ne scelga una nuova con «Hai dimenticato la password?» nella pagina di accesso.',
    ],
    action: { label: 'Accedi di nuovo ora', url: v.link },
  }),
  staff_unlock: (v) => ({
    subject: `Accesso alla console di ${v.site} temporaneamente bloccato`,
    lines: [
      `Ciao ${v.name},`,
      `ci sono stati troppi tentativi non riusciti di accedere alla console di ${v.site} con il tuo account, quindi l’accesso con questo account è bloccato per un po’, anche per te.`,
      'Se eri tu, puoi accedere di nuovo subito con il pulsante qui sotto (con la tua password e il codice della tua app di autenticazione). Il link può essere usato una sola volta e scade dopo 1 ora.',
      'Se non eri tu, forse qualcuno sta cercando di entrare nella console con il tuo account: avvisa un amministratore.',
    ],
    action: { label: 'Accedi di nuovo ora', url: v.link },
  }),
  mail_change_confirm: (v) => ({
    subject: `Confermi il nuovo indirizzo email per ${v.site}`,
    lines: [
      `Gentile ${v.name},`,
      `la preghiamo di confermare che ${v.newEmail ?? 'questo indirizzo'} è il nuovo indirizzo email del suo account ${v.site}.`,
      'Il suo indirizzo verrà cambiato solo quando aprirà questo link. Il link può essere usato una sola volta e scade dopo 24 ore.',
    ],
    action: { label: 'Conferma il nuovo indirizzo', url: v.link },
  }),
  mail_change_notice: (v) => ({
    subject: `L’indirizzo email del suo account ${v.site} sta per cambiare`,
    lines: [
      `Gentile ${v.name},`,
      `è stata richiesta la modifica dell’indirizzo email del suo account in ${v.newEmail ?? 'un nuovo indirizzo'}. La modifica avrà effetto non appena il nuovo indirizzo sarà confermato.`,
      'Se questo indirizzo non è corretto o se non ha richiesto la modifica, ce lo comunichi.',
    ],
    action: { label: 'Non è corretto', url: v.link },
  }),
  mail_change_taken: (v) => ({
    subject: `Tentativo di modifica dell’indirizzo email su ${v.site}`,
    lines: [
      'Buongiorno,',
      `qualcuno ha chiesto di trasferire un altro account ${v.site} su questo indirizzo, al quale è già associato un account. Non è stato modificato nulla.`,
      'Se la richiesta è partita da lei, effettui invece l’accesso con questo indirizzo.',
    ],
    action: { label: 'Accedi', url: v.link },
  }),
  report: (v) => ({
    subject: `Segnalazione n. ${v.report?.id} su ${v.site}: ${v.report?.reason}`,
    lines: [
      `Il membro ${v.report?.reporter} ha segnalato il membro ${v.report?.reported} per: ${v.report?.reason}.`,
      `Motivazione: ${v.report?.text || '(nessuna)'}`,
      'Controlla il profilo e, se è stato segnalato un messaggio, la conversazione in cui si trova.',
    ],
    action: { label: 'Apri il profilo segnalato', url: v.link },
  }),
  complaint_receipt: (v) => ({
    subject: `Abbiamo ricevuto il tuo reclamo ${c(v).reference} su ${v.site}`,
    lines: [
      `Ciao ${v.name},`,
      `abbiamo ricevuto il tuo reclamo su ${v.site}. Il numero di riferimento è ${c(v).reference}: indicalo se ci scrivi in merito.`,
      `Esaminiamo con cura ogni segnalazione e ti rispondiamo via email, di norma entro 7 giorni. Se interveniamo, ti diciamo cosa abbiamo fatto e perché.`,
      `Non hai inviato nulla? Allora puoi ignorare questa email.`,
    ],
    action: { label: `Reclami e ricorsi su ${v.site}`, url: v.link },
  }),
  complaint: (v) => ({
    subject: `Reclamo ${c(v).reference} su ${v.site}: ${c(v).subject}`,
    lines: [
      `È arrivata una segnalazione (${c(v).kind}) dal modulo reclami.`,
      `Da: ${c(v).name} <${c(v).email}>${c(v).member ? ` (membro ${c(v).member})` : ''}`,
      `Dove: ${c(v).url || '-'}`,
      `Cosa e perché:`,
      `${c(v).text}`,
      `Il mittente ha dichiarato di agire in buona fede. Rispondere via email citando ${c(v).reference}.`,
    ],
    action: { label: 'Apri il link del reclamo', url: v.link },
  }),
  receipt: (v) => {
    const r = v.receipt ?? { credits: 0, amount: '', balance: 0, transaction: '' }
    return {
      subject: `La tua ricevuta ${v.site}: ${r.credits} crediti`,
      lines: [
        `Ciao ${v.name},`,
        `Grazie per il tuo acquisto. Abbiamo aggiunto ${r.credits} crediti al tuo account per ${r.amount}.`,
        `Il tuo saldo ora è di ${r.balance} crediti.`,
        `Transazione: ${r.transaction}`,
      ],
      action: { label: 'Vedi la transazione', url: v.link },
    }
  },
  new_message: (v) => ({
    subject: `${m(v).sender} Le ha scritto un messaggio su ${v.site}`,
    lines: [
      `Gentile ${v.name},`,
      `${m(v).sender} Le ha inviato un nuovo messaggio su ${v.site}.`,
      'Acceda per leggerlo e rispondere. Finché non lo avrà letto, non Le invieremo altre email su questa chat.',
    ],
    action: { label: 'Leggi il messaggio', url: v.link },
    optOut: {
      label:
        'Preferisce non ricevere queste email? Disattivi «Nuovi messaggi» nelle impostazioni delle notifiche',
      url: m(v).settings,
    },
  }),
  statement_of_reasons: (v) => ({
    subject: `Decisione sul tuo account di ${v.site}`,
    lines: [
      `Ciao ${v.name},`,
      whatOf(v),
      `La regola in questione: ${rules[s(v).rule] ?? s(v).rule}.`,
      `Fatti e motivi: ${s(v).reason}`,
      `Questa decisione è stata presa da una persona del nostro team di moderazione; non sono stati usati mezzi automatizzati né per individuare il caso né per decidere.`,
      `Puoi presentare ricorso gratuitamente entro 6 mesi con il link qui sotto (o dalla pagina dei reclami, scegliendo "ricorso contro una decisione"). Il ricorso viene esaminato da un altro moderatore; puoi anche rivolgerti a un organismo di risoluzione extragiudiziale delle controversie o al giudice.`,
    ],
    action: { label: `Presenta ricorso`, url: v.link },
  }),
  report_decision: (v) => ({
    subject: `La tua segnalazione su ${v.site}: la nostra decisione`,
    lines: [
      `Ciao ${v.name},`,
      `Grazie per la segnalazione. L’abbiamo esaminata.`,
      v.decision?.acted
        ? `Abbiamo preso provvedimenti sul contenuto o sull’iscritto in questione.`
        : `Non abbiamo riscontrato violazioni delle nostre regole, quindi non abbiamo preso provvedimenti.`,
      `Se non sei d’accordo con questa decisione, puoi contestarla con il link qui sotto.`,
    ],
    action: { label: `Contesta la decisione`, url: v.link },
  }),
  appeal_decision: (v) => ({
    subject: `Il tuo ricorso su ${v.site}: decisione`,
    lines: [
      `Ciao ${v.name},`,
      `Un altro moderatore ha esaminato il tuo ricorso.`,
      whatOf(v),
      v.appeal?.outcome === 'lifted'
        ? `Abbiamo revocato la decisione.${s(v).kind === 'suspend' || s(v).kind === 'ban' ? ` Puoi accedere di nuovo.` : ''}`
        : `Abbiamo confermato la decisione.`,
      `Motivi: ${v.appeal?.reason ?? ''}`,
      `Se non sei ancora d’accordo, puoi rivolgerti a un organismo certificato di risoluzione extragiudiziale delle controversie o al giudice.`,
    ],
    action: { label: `Accedi`, url: v.link },
  }),
}
