import {
  complaintOf as c,
  type LocaleTemplates,
  type MailVars,
  messageOf as m,
  statementOf as s,
} from './types.ts'

const rules: Record<string, string> = {
  harassment: `el acoso`,
  spam_scam: `el spam o las estafas`,
  fake_profile: `los perfiles falsos`,
  explicit_content: `el contenido explícito`,
  underage: `los miembros menores de 18 años`,
  other: `nuestras condiciones de uso`,
}
const whats: Record<string, (v: MailVars) => string> = {
  warn: () => `Te hacemos una advertencia formal.`,
  suspend: (v) =>
    `Hemos suspendido tu cuenta hasta el ${s(v).ends} (UTC). Hasta entonces no puedes iniciar sesión.`,
  ban: () => `Hemos cerrado tu cuenta de forma definitiva (expulsión).`,
  remove_photo: () => `Hemos retirado una foto de tu perfil.`,
  remove_text: () => `Hemos retirado el texto de tu perfil.`,
}
const whatOf = (v: MailVars) => whats[s(v).kind]?.(v) ?? ''

/** Spanish (formal: usted); the salutation ends in a colon, as Spanish letters do. */
export const es: LocaleTemplates = {
  activate: (v) => ({
    subject: `Active su cuenta de ${v.site}`,
    lines: [
      `Hola, ${v.name}:`,
      `¡Le damos la bienvenida a ${v.site}! Confirme su dirección de correo electrónico para activar su cuenta.`,
      'El enlace solo puede usarse una vez y caduca a los 7 días.',
      'Si no se ha registrado, puede ignorar este correo.',
    ],
    action: { label: 'Activar mi cuenta', url: v.link },
  }),
  signup_exists: (v) => ({
    subject: `Intento de registro en ${v.site}`,
    lines: [
      `Hola, ${v.name}:`,
      `Alguien ha intentado crear una cuenta nueva en ${v.site} con esta dirección, que ya tiene una cuenta asociada.`,
      'Si ha sido usted, inicie sesión; si ha olvidado su contraseña, puede restablecerla desde la página de inicio de sesión.',
      'Si no ha sido usted, puede ignorar este correo: no se ha modificado nada.',
    ],
    action: { label: 'Iniciar sesión', url: v.link },
  }),
  reset: (v) => ({
    subject: `Restablezca su contraseña de ${v.site}`,
    lines: [
      `Hola, ${v.name}:`,
      'Hemos recibido una solicitud para restablecer su contraseña. Elija una nueva mediante el siguiente enlace.',
      'El enlace solo puede usarse una vez y caduca al cabo de 1 hora. Al establecer una nueva contraseña, se cerrará su sesión en todos los demás dispositivos.',
      'Si no lo ha solicitado, ignore este correo: su contraseña seguirá siendo la misma.',
    ],
    action: { label: 'Elegir una nueva contraseña', url: v.link },
  }),
  login_unlock: (v) => ({
    subject: `Inicio de sesión en ${v.site} bloqueado temporalmente`,
    lines: [
      `Hola, ${v.name}:`,
      `Se ha intentado iniciar sesión en su cuenta de ${v.site} demasiadas veces con una contraseña incorrecta, así que el inicio de sesión en esta cuenta queda bloqueado durante un tiempo, también para usted.`,
      'Si fue usted, puede volver a iniciar sesión ahora mismo con el botón de abajo. El enlace solo puede usarse una vez y caduca al cabo de 1 hora.',
      'Si no fue usted, puede que alguien esté intentando adivinar su contraseña. Sin ella nadie puede entrar; si también la usa en otros sitios o es corta, elija una nueva con «¿Olvidaste tu contraseña?» en la página de inicio de sesión.',
    ],
    action: { label: 'Volver a iniciar sesión ahora', url: v.link },
  }),
  staff_unlock: (v) => ({
    subject: `Acceso a la consola de ${v.site} bloqueado temporalmente`,
    lines: [
      `Hola, ${v.name}:`,
      `Ha habido demasiados intentos fallidos de acceder a la consola de ${v.site} con tu cuenta, así que el acceso con esta cuenta queda bloqueado durante un tiempo, también para ti.`,
      'Si fuiste tú, puedes volver a acceder ahora mismo con el botón de abajo (con tu contraseña y el código de tu aplicación de autenticación). El enlace solo puede usarse una vez y caduca al cabo de 1 hora.',
      'Si no fuiste tú, puede que alguien esté intentando entrar en la consola con tu cuenta: avisa a un administrador.',
    ],
    action: { label: 'Volver a acceder ahora', url: v.link },
  }),
  mail_change_confirm: (v) => ({
    subject: `Confirme su nueva dirección de correo electrónico para ${v.site}`,
    lines: [
      `Hola, ${v.name}:`,
      `Confirme que ${v.newEmail ?? 'esta dirección'} es la nueva dirección de correo electrónico de su cuenta de ${v.site}.`,
      'Su dirección solo cambiará cuando abra este enlace. Solo puede usarse una vez y caduca a las 24 horas.',
    ],
    action: { label: 'Confirmar mi nueva dirección', url: v.link },
  }),
  mail_change_notice: (v) => ({
    subject: `La dirección de correo electrónico de su cuenta de ${v.site} va a cambiar`,
    lines: [
      `Hola, ${v.name}:`,
      `Se ha solicitado cambiar la dirección de correo electrónico de su cuenta a ${v.newEmail ?? 'una nueva dirección'}. El cambio se hará efectivo en cuanto se confirme la nueva dirección.`,
      'Si esta dirección no es correcta o no ha solicitado el cambio, háganoslo saber.',
    ],
    action: { label: 'Esto no es correcto', url: v.link },
  }),
  mail_change_taken: (v) => ({
    subject: `Intento de cambio de dirección de correo electrónico en ${v.site}`,
    lines: [
      'Hola:',
      `Alguien ha solicitado trasladar otra cuenta de ${v.site} a esta dirección, que ya tiene una cuenta asociada. No se ha modificado nada.`,
      'Si ha sido usted, inicie sesión con esta dirección.',
    ],
    action: { label: 'Iniciar sesión', url: v.link },
  }),
  report: (v) => ({
    subject: `Denuncia n.º ${v.report?.id} en ${v.site}: ${v.report?.reason}`,
    lines: [
      `El miembro ${v.report?.reporter} ha denunciado al miembro ${v.report?.reported} por: ${v.report?.reason}.`,
      `Comentario: ${v.report?.text || '(ninguno)'}`,
      'Revisa el perfil y, si se ha denunciado un mensaje, la conversación en la que aparece.',
    ],
    action: { label: 'Abrir el perfil denunciado', url: v.link },
  }),
  complaint_receipt: (v) => ({
    subject: `Hemos recibido tu reclamación ${c(v).reference} en ${v.site}`,
    lines: [
      `Hola, ${v.name}:`,
      `Hemos recibido tu reclamación en ${v.site}. Su referencia es ${c(v).reference}; indícala si nos escribes sobre ella.`,
      `Revisamos con atención cada aviso y te respondemos por correo electrónico, por lo general en un plazo de 7 días. Si actuamos, te explicamos qué hicimos y por qué.`,
      `¿No has enviado nada? Entonces puedes ignorar este correo.`,
    ],
    action: { label: `Reclamaciones y recursos en ${v.site}`, url: v.link },
  }),
  complaint: (v) => ({
    subject: `Reclamación ${c(v).reference} en ${v.site}: ${c(v).subject}`,
    lines: [
      `Ha llegado un aviso (${c(v).kind}) por el formulario de reclamaciones.`,
      `De: ${c(v).name} <${c(v).email}>${c(v).member ? ` (miembro ${c(v).member})` : ''}`,
      `Dónde: ${c(v).url || '-'}`,
      `Qué y por qué:`,
      `${c(v).text}`,
      `El remitente declaró actuar de buena fe. Responder por correo citando ${c(v).reference}.`,
    ],
    action: { label: 'Abrir el enlace de la reclamación', url: v.link },
  }),
  receipt: (v) => {
    const r = v.receipt ?? { credits: 0, amount: '', balance: 0, transaction: '' }
    return {
      subject: `Tu recibo de ${v.site}: ${r.credits} créditos`,
      lines: [
        `Hola, ${v.name}:`,
        `Gracias por tu compra. Hemos añadido ${r.credits} créditos a tu cuenta por ${r.amount}.`,
        `Tu saldo es ahora de ${r.balance} créditos.`,
        `Transacción: ${r.transaction}`,
      ],
      action: { label: 'Ver la transacción', url: v.link },
    }
  },
  new_message: (v) => ({
    subject: `${m(v).sender} le ha enviado un mensaje en ${v.site}`,
    lines: [
      `Hola, ${v.name}:`,
      `${m(v).sender} le ha enviado un mensaje nuevo en ${v.site}.`,
      'Inicie sesión para leerlo y responder. Mientras no lo haya leído, no le enviaremos más correos sobre este chat.',
    ],
    action: { label: 'Leer el mensaje', url: v.link },
    optOut: {
      label:
        '¿Prefiere no recibir estos correos? Desactive «Mensajes nuevos» en sus notificaciones',
      url: m(v).settings,
    },
  }),
  statement_of_reasons: (v) => ({
    subject: `Decisión sobre tu cuenta de ${v.site}`,
    lines: [
      `Hola, ${v.name}:`,
      whatOf(v),
      `La norma en cuestión: ${rules[s(v).rule] ?? s(v).rule}.`,
      `Hechos y motivos: ${s(v).reason}`,
      `Esta decisión la ha tomado una persona de nuestro equipo de moderación; no se han usado medios automatizados ni para detectar el caso ni para decidir.`,
      `Puedes recurrirla gratis en un plazo de 6 meses con el enlace de abajo (o en la página de reclamaciones, eligiendo «recurso contra una decisión»). Otro moderador revisará tu recurso; también puedes acudir a un órgano de resolución extrajudicial de litigios o a los tribunales.`,
    ],
    action: { label: `Recurrir la decisión`, url: v.link },
  }),
  report_decision: (v) => ({
    subject: `Tu denuncia en ${v.site}: nuestra decisión`,
    lines: [
      `Hola, ${v.name}:`,
      `Gracias por tu denuncia. La hemos revisado.`,
      v.decision?.acted
        ? `Hemos tomado medidas contra el contenido o el miembro en cuestión.`
        : `No hemos encontrado ninguna infracción de nuestras normas, así que no hemos tomado medidas.`,
      `Si no estás de acuerdo con esta decisión, puedes impugnarla con el enlace de abajo.`,
    ],
    action: { label: `Impugnar la decisión`, url: v.link },
  }),
  appeal_decision: (v) => ({
    subject: `Tu recurso en ${v.site}: decisión`,
    lines: [
      `Hola, ${v.name}:`,
      `Otro moderador ha revisado tu recurso.`,
      whatOf(v),
      v.appeal?.outcome === 'lifted'
        ? `Hemos anulado la decisión.${s(v).kind === 'suspend' || s(v).kind === 'ban' ? ` Ya puedes volver a iniciar sesión.` : ''}`
        : `Mantenemos la decisión.`,
      `Motivos: ${v.appeal?.reason ?? ''}`,
      `Si sigues sin estar de acuerdo, puedes acudir a un órgano certificado de resolución extrajudicial de litigios o a los tribunales.`,
    ],
    action: { label: `Iniciar sesión`, url: v.link },
  }),
}
