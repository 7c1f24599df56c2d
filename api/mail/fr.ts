import {
  complaintOf as c,
  type LocaleTemplates,
  type MailVars,
  messageOf as m,
  statementOf as s,
} from './types.ts'

const rules: Record<string, string> = {
  harassment: `le harcèlement`,
  spam_scam: `le spam ou les arnaques`,
  fake_profile: `les faux profils`,
  explicit_content: `les contenus explicites`,
  underage: `les membres de moins de 18 ans`,
  other: `nos conditions d’utilisation`,
}
const whats: Record<string, (v: MailVars) => string> = {
  warn: () => `Nous t’adressons un avertissement formel.`,
  suspend: (v) =>
    `Nous avons suspendu ton compte jusqu’au ${s(v).ends} (UTC). D’ici là, tu ne peux pas te connecter.`,
  ban: () => `Nous avons fermé ton compte définitivement (bannissement).`,
  remove_photo: () => `Nous avons retiré une photo de ton profil.`,
  remove_text: () => `Nous avons retiré le texte de ton profil.`,
}
const whatOf = (v: MailVars) => whats[s(v).kind]?.(v) ?? ''

/** French (formal: vous); a no-break space precedes ! ? : ; as French typography wants. */
export const fr: LocaleTemplates = {
  activate: (v) => ({
    subject: `Activez votre compte ${v.site}`,
    lines: [
      `Bonjour ${v.name},`,
      `Bienvenue sur ${v.site} ! Veuillez confirmer votre adresse e-mail pour activer votre compte.`,
      'Ce lien est à usage unique et expire au bout de 7 jours.',
      'Si vous n’êtes pas à l’origine de cette inscription, vous pouvez ignorer cet e-mail.',
    ],
    action: { label: 'Activer mon compte', url: v.link },
  }),
  signup_exists: (v) => ({
    subject: `Tentative d’inscription sur ${v.site}`,
    lines: [
      `Bonjour ${v.name},`,
      `Quelqu’un a tenté de créer un nouveau compte ${v.site} avec cette adresse, qui est déjà associée à un compte.`,
      'Si c’était vous, connectez-vous plutôt ; si vous avez oublié votre mot de passe, vous pouvez le réinitialiser depuis la page de connexion.',
      'Si ce n’était pas vous, vous pouvez ignorer cet e-mail : rien n’a été modifié.',
    ],
    action: { label: 'Se connecter', url: v.link },
  }),
  reset: (v) => ({
    subject: `Réinitialisez votre mot de passe ${v.site}`,
    lines: [
      `Bonjour ${v.name},`,
      'Nous avons reçu une demande de réinitialisation de votre mot de passe. Choisissez-en un nouveau à l’aide du lien ci-dessous.',
      'Ce lien est à usage unique et expire au bout d’une heure. Une fois le nouveau mot de passe défini, toutes vos autres sessions seront fermées.',
      'Si vous n’avez pas fait cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.',
    ],
    action: { label: 'Choisir un nouveau mot de passe', url: v.link },
  }),
  login_unlock: (v) => ({
    subject: `Connexion à ${v.site} suspendue temporairement`,
    lines: [
      `Bonjour ${v.name},`,
      `Il y a eu trop de tentatives de connexion à votre compte ${v.site} avec un mauvais mot de passe : la connexion à ce compte est donc suspendue pendant un moment, pour vous aussi.`,
      'Si c’était vous, le bouton ci-dessous vous permet de vous reconnecter tout de suite. Ce lien est à usage unique et expire au bout d’une heure.',
      'Si ce n’était pas vous, quelqu’un essaie peut-être de deviner votre mot de passe. Sans lui, personne ne peut entrer ; si vous l’utilisez aussi ailleurs ou s’il est court, choisissez-en un nouveau via « Mot de passe oublié ? » sur la page de connexion.',
    ],
    action: { label: 'Me reconnecter maintenant', url: v.link },
  }),
  staff_unlock: (v) => ({
    subject: `Connexion à la console de ${v.site} suspendue temporairement`,
    lines: [
      `Bonjour ${v.name},`,
      `Il y a eu trop de tentatives de connexion infructueuses à la console de ${v.site} avec votre compte : la connexion avec ce compte est donc suspendue pendant un moment, pour vous aussi.`,
      'Si c’était vous, le bouton ci-dessous vous permet de vous reconnecter tout de suite (avec votre mot de passe et le code de votre application d’authentification). Ce lien est à usage unique et expire au bout d’une heure.',
      'Si ce n’était pas vous, quelqu’un essaie peut-être d’accéder à la console avec votre compte : prévenez un administrateur.',
    ],
    action: { label: 'Me reconnecter maintenant', url: v.link },
  }),
  mail_change_confirm: (v) => ({
    subject: `Confirmez votre nouvelle adresse e-mail pour ${v.site}`,
    lines: [
      `Bonjour ${v.name},`,
      `Veuillez confirmer que ${v.newEmail ?? 'cette adresse'} est la nouvelle adresse e-mail de votre compte ${v.site}.`,
      'Votre adresse ne sera modifiée que si vous suivez ce lien. Il est à usage unique et expire au bout de 24 heures.',
    ],
    action: { label: 'Confirmer ma nouvelle adresse', url: v.link },
  }),
  mail_change_notice: (v) => ({
    subject: `L’adresse e-mail de votre compte ${v.site} va changer`,
    lines: [
      `Bonjour ${v.name},`,
      `Il a été demandé de remplacer l’adresse e-mail de votre compte par ${v.newEmail ?? 'une nouvelle adresse'}. Ce changement prendra effet dès que la nouvelle adresse aura été confirmée.`,
      'Si cette adresse est erronée ou si vous n’avez pas demandé ce changement, faites-le-nous savoir.',
    ],
    action: { label: 'Ce n’est pas correct', url: v.link },
  }),
  mail_change_taken: (v) => ({
    subject: `Tentative de changement d’adresse e-mail sur ${v.site}`,
    lines: [
      'Bonjour,',
      `Quelqu’un a demandé à transférer un autre compte ${v.site} vers cette adresse, qui est déjà associée à un compte. Rien n’a été modifié.`,
      'Si c’était vous, connectez-vous plutôt avec cette adresse.',
    ],
    action: { label: 'Se connecter', url: v.link },
  }),
  report: (v) => ({
    subject: `Signalement n° ${v.report?.id} sur ${v.site} : ${v.report?.reason}`,
    lines: [
      `Le membre ${v.report?.reporter} a signalé le membre ${v.report?.reported} pour : ${v.report?.reason}.`,
      `Précisions : ${v.report?.text || '(aucune)'}`,
      'Merci de vérifier le profil et, si un message a été signalé, la conversation qui l’entoure.',
    ],
    action: { label: 'Ouvrir le profil signalé', url: v.link },
  }),
  complaint_receipt: (v) => ({
    subject: `Nous avons bien reçu votre réclamation ${c(v).reference} sur ${v.site}`,
    lines: [
      `Bonjour ${v.name},`,
      `nous avons bien reçu votre réclamation sur ${v.site}. Sa référence est ${c(v).reference} ; merci de la rappeler si vous nous écrivez à ce sujet.`,
      `Nous examinons chaque signalement avec attention et vous répondons par e-mail, en règle générale sous 7 jours. Si nous intervenons, nous vous disons ce que nous avons fait et pourquoi.`,
      `Vous n'avez rien envoyé ? Vous pouvez ignorer cet e-mail.`,
    ],
    action: { label: `Réclamations et recours sur ${v.site}`, url: v.link },
  }),
  complaint: (v) => ({
    subject: `Réclamation ${c(v).reference} sur ${v.site} : ${c(v).subject}`,
    lines: [
      `Un signalement (${c(v).kind}) est arrivé par le formulaire de réclamation.`,
      `De : ${c(v).name} <${c(v).email}>${c(v).member ? ` (membre ${c(v).member})` : ''}`,
      `Où : ${c(v).url || '-'}`,
      `Quoi et pourquoi :`,
      `${c(v).text}`,
      `L'expéditeur a déclaré agir de bonne foi. Répondre par e-mail en citant ${c(v).reference}.`,
    ],
    action: { label: 'Ouvrir le lien de la réclamation', url: v.link },
  }),
  receipt: (v) => {
    const r = v.receipt ?? { credits: 0, amount: '', balance: 0, transaction: '' }
    return {
      subject: `Votre reçu ${v.site} : ${r.credits} crédits`,
      lines: [
        `Bonjour ${v.name},`,
        `Merci pour votre achat. ${r.credits} crédits ont été ajoutés à votre compte pour ${r.amount}.`,
        `Votre solde est maintenant de ${r.balance} crédits.`,
        `Transaction : ${r.transaction}`,
      ],
      action: { label: 'Voir la transaction', url: v.link },
    }
  },
  new_message: (v) => ({
    subject: `${m(v).sender} vous a envoyé un message sur ${v.site}`,
    lines: [
      `Bonjour ${v.name},`,
      `${m(v).sender} vous a envoyé un nouveau message sur ${v.site}.`,
      'Connectez-vous pour le lire et y répondre. Tant que vous ne l’aurez pas lu, nous ne vous écrirons plus au sujet de cette conversation.',
    ],
    action: { label: 'Lire le message', url: v.link },
    optOut: {
      label:
        'Vous préférez ne plus recevoir ces e-mails ? Désactivez « Nouveaux messages » dans vos notifications',
      url: m(v).settings,
    },
  }),
  statement_of_reasons: (v) => ({
    subject: `Décision concernant ton compte ${v.site}`,
    lines: [
      `Bonjour ${v.name},`,
      whatOf(v),
      `La règle concernée : ${rules[s(v).rule] ?? s(v).rule}.`,
      `Faits et motifs : ${s(v).reason}`,
      `Cette décision a été prise par une personne de notre équipe de modération ; aucun moyen automatisé n’a servi à détecter le cas ni à décider.`,
      `Tu peux contester gratuitement cette décision dans un délai de 6 mois avec le lien ci-dessous (ou sur la page des réclamations, en choisissant « contestation d’une décision »). Un autre modérateur examine ta contestation ; tu peux aussi saisir un organisme de règlement extrajudiciaire des litiges ou la justice.`,
    ],
    action: { label: `Contester la décision`, url: v.link },
  }),
  report_decision: (v) => ({
    subject: `Ton signalement sur ${v.site} : notre décision`,
    lines: [
      `Bonjour ${v.name},`,
      `Merci pour ton signalement. Nous l’avons examiné.`,
      v.decision?.acted
        ? `Nous avons pris des mesures contre le contenu ou le membre concerné.`
        : `Nous n’avons constaté aucune infraction à nos règles et n’avons donc rien fait.`,
      `Si tu n’es pas d’accord avec cette décision, tu peux la contester avec le lien ci-dessous.`,
    ],
    action: { label: `Contester la décision`, url: v.link },
  }),
  appeal_decision: (v) => ({
    subject: `Ta contestation sur ${v.site} : décision`,
    lines: [
      `Bonjour ${v.name},`,
      `Un autre modérateur a examiné ta contestation.`,
      whatOf(v),
      v.appeal?.outcome === 'lifted'
        ? `Nous avons levé la décision.${s(v).kind === 'suspend' || s(v).kind === 'ban' ? ` Tu peux te reconnecter.` : ''}`
        : `Nous maintenons la décision.`,
      `Motifs : ${v.appeal?.reason ?? ''}`,
      `Si tu n’es toujours pas d’accord, tu peux saisir un organisme certifié de règlement extrajudiciaire des litiges ou la justice.`,
    ],
    action: { label: `Se connecter`, url: v.link },
  }),
}
